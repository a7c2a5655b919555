/**
 * An ACH file builder as a process of its own, for the crash test: builds a file from every waiting entry against
 * DATABASE_URL (bank routing number 102000021, business date ACH_BUSINESS_DATE) and, with ACH_FAULT=file-recorded,
 * prints `FAULT file-recorded` right after the file is recorded and kills itself with SIGKILL (before the transfers
 * are marked sent and before any transmission). Without the fault it prints `BUILT <fileId|none>` and exits.
 */
import { createCommandHandler, createPostgresSnapshotStore } from '@bank/commands';
import { createEventStore } from '@bank/eventstore';
import { createPool, parseConfig } from '@bank/platform';
import { achFileSettingsOf, buildAchFile } from '../src/index';

const config = parseConfig(process.env);
const pool = createPool(config.DATABASE_URL, 4);
const store = await createEventStore(config, { pool });
const commands = createCommandHandler({ store, snapshots: createPostgresSnapshotStore(pool) });
const file = await buildAchFile(
  { commands, pool, settings: achFileSettingsOf('102000021'), businessDate: async () => process.env.ACH_BUSINESS_DATE ?? '2026-11-25' },
  async (point) => {
    if (process.env.ACH_FAULT !== point) return;
    process.stdout.write(`FAULT ${point}\n`);
    process.kill(process.pid, 'SIGKILL');
    await new Promise<never>(() => {
      // killed
    });
  },
);
process.stdout.write(`BUILT ${file?.fileId ?? 'none'}\n`);
await store.close();
await pool.end();
