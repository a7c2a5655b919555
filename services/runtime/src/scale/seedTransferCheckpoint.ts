/**
 * After a generated bank is written, the transfer process's checkpoint where the real process would have left it:
 * past every transfer, since each is finished (internal ones credited, external ones settled). Without it a worker
 * started on the generated bank would follow the whole log again: it would append nothing (every step is
 * idempotent, seedBankTransfers.int.test.ts), but it would re-read millions of events and queue a settlement for
 * every external transfer, each of which would then find nothing to do. For a fresh database only (seed:scale's).
 */
import { comparePositions, type Position } from '@bank/eventstore';
import { ensureProcessSchema, readProcessCheckpoint, saveProcessCheckpoint } from '@bank/transfers';
import type pg from 'pg';

/** The worker's transfer process's checkpoint name (startTransferProcess's default). */
const PROCESS_NAME = 'transfers';

/** `head`: the position of the load's last event (seedBank's result). */
export async function seedTransferCheckpoint(pool: pg.Pool, head: Position | undefined): Promise<void> {
  if (!head) return;
  await ensureProcessSchema(pool);
  const current = await readProcessCheckpoint(pool, PROCESS_NAME);
  if (current && comparePositions(current, head) >= 0) return;
  await saveProcessCheckpoint(pool, PROCESS_NAME, head);
}
