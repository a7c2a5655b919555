import { rebuildProjections, type RebuildOptions, type RebuildResult } from '@bank/projector';
import type pg from 'pg';
import { seedBank, type SeedBankOptions, type SeedBankResult } from './seedBank';
import { saveSeedDocument } from './seedDocument';
import { seedTransferCheckpoint } from './seedTransferCheckpoint';
import { waitForLogPosition } from './waitForLogPosition';

export interface GeneratedBankLoad {
  readonly seeded: SeedBankResult;
  /** Writing the events, the verifications' document and the transfer checkpoint. */
  readonly loadSeconds: number;
  readonly rebuilt: RebuildResult;
}

/**
 * A generated bank on a database with the event store's and the read models' schemas: the events (seedBank), the
 * verifications' document in the file store, the transfer process's checkpoint past every generated transfer, then
 * the read models built by the projector's rebuild. What `npm run seed:scale` and `npm run bench:scale` both do.
 */
export async function loadGeneratedBank(
  options: SeedBankOptions & { readonly pool: pg.Pool; readonly rebuild?: Omit<RebuildOptions, 'pool' | 'store'> },
): Promise<GeneratedBankLoad> {
  const started = performance.now();
  const seeded = await seedBank(options);
  await saveSeedDocument(options.pool, seeded.verifiers);
  await seedTransferCheckpoint(options.pool, seeded.position);
  const loadSeconds = (performance.now() - started) / 1000;
  // Another transaction open on the server would hide the newest events from the rebuild's reads: wait it out.
  if (seeded.position) await waitForLogPosition(options.store, seeded.position);
  const rebuilt = await rebuildProjections({ ...options.rebuild, pool: options.pool, store: options.store });
  return { seeded, loadSeconds, rebuilt };
}
