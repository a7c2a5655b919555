/**
 * Transfer process catch-up: `npm run bench:transfers-catchup` against DATABASE_URL (a generated bank, e.g.
 * `npm run seed:scale -- --customers 2000 --transactions 200000` on a fresh database).
 *
 * Forgets the process's checkpoint (under its own name, `catchup-bench`, so a worker's is untouched), starts the
 * transfer process from the start of the log and times how long until its checkpoint reaches the log's head; prints
 * the events per second over the whole log and, last, one JSON line.
 */
import { createCommandHandler, createPostgresSnapshotStore } from '@bank/commands';
import { createEventStore, formatPosition } from '@bank/eventstore';
import { createPool, sleep } from '@bank/platform';
import { ensureProcessSchema, PROCESS_SCHEMA } from '../src/processCheckpoint';
import { startTransferProcess } from '../src/transferProcess';

const NAME = 'catchup-bench';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL names the generated bank');
  const pool = createPool(url, 16);
  const store = await createEventStore({ EVENTSTORE_URL: process.env.EVENTSTORE_URL }, { pool });
  await ensureProcessSchema(pool);
  await pool.query(`DELETE FROM ${PROCESS_SCHEMA}.checkpoints WHERE name = $1`, [NAME]);
  const head = await store.headPosition();
  if (!head) throw new Error('The log is empty');
  const { rows } = await pool.query<{ events: string }>('SELECT count(*) AS events FROM eventstore.events');
  const events = Number(rows[0]?.events ?? 0);
  const target = formatPosition(head);
  const started = performance.now();
  const transfers = startTransferProcess({
    store,
    commands: createCommandHandler({ store, snapshots: createPostgresSnapshotStore(pool) }),
    pool,
    name: NAME,
  });
  await transfers.ready;
  let last = 0;
  for (;;) {
    const checkpoint = transfers.status().checkpoint;
    if (checkpoint !== undefined && checkpoint >= target) break;
    const seconds = (performance.now() - started) / 1000;
    if (seconds - last >= 10) {
      last = seconds;
      console.log(`${seconds.toFixed(0)} s: checkpoint ${checkpoint ?? 'none'} of ${target}`);
    }
    await sleep(20);
  }
  const seconds = (performance.now() - started) / 1000;
  await transfers.stop();
  await pool.query(`DELETE FROM ${PROCESS_SCHEMA}.checkpoints WHERE name = $1`, [NAME]);
  await store.close();
  await pool.end();
  console.log(`caught up over ${events} events in ${seconds.toFixed(2)} s: ${Math.round(events / seconds)} events/s`);
  console.log(JSON.stringify({ events, seconds: Number(seconds.toFixed(3)), eventsPerSecond: Math.round(events / seconds) }));
}

await main();
