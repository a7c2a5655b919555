/**
 * A projector process for the multi-process tests: `node --import tsx projector/src/testing/projectorChild.ts`.
 * Env: DATABASE_URL, PROJECTOR_SCHEMA (default rm), PROJECTOR_BATCH_SIZE (default 500), PROJECTOR_PROBE=1 to add
 * the applied-events probe. Prints one JSON line per state change: {"state": "standby" | "leader" | …, "pid"}.
 */
import { createPostgresEventStore } from '@bank/eventstore';
import { createPool } from '@bank/platform';
import { defaultProjections } from '../projections/defaultProjections';
import { startProjector } from '../runner/projectorRunner';
import { appliedProbe } from './appliedProbe';

const pool = createPool(process.env.DATABASE_URL!, 4);
const store = createPostgresEventStore({ pool, pollIntervalMs: 50 });
const projector = startProjector({
  pool,
  store,
  schema: process.env.PROJECTOR_SCHEMA ?? 'rm',
  batchSize: Number(process.env.PROJECTOR_BATCH_SIZE ?? 500),
  leaderRetryMs: 100,
  projections: process.env.PROJECTOR_PROBE === '1' ? [...defaultProjections, appliedProbe] : defaultProjections,
});

let last = '';
const report = setInterval(() => {
  const { state, error } = projector.status();
  if (state === last) return;
  last = state;
  process.stdout.write(`${JSON.stringify({ state, pid: process.pid, error: error?.message })}\n`);
}, 20);

process.on('SIGTERM', () => {
  void projector.stop().then(async () => {
    clearInterval(report);
    await store.close();
    await pool.end();
    process.exit(0);
  });
});
