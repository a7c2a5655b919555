/**
 * `npm run seed:scale -- --customers 1000000 --transactions 10000000 --seed 42 [--appends] [--unlogged]`: a generated
 * bank on the configured database (DATABASE_URL; use a fresh one), written as the bank's own events (seedBank: the
 * domain's deciders, hash-chained like the API's: staff postings, completed internal and external transfers,
 * verifications, contact messages; the history day by day with each day's close of business: interest accrued
 * every day and paid every month), then the read models built by the projector's rebuild. Progress with rate and
 * ETA. Deterministic for a seed. By default the events go in by the bulk load (bulkEventLoad.ts: COPY into an EMPTY
 * store, refused otherwise, the signed checkpoints written as it goes); `--appends` writes through the store's
 * appends, and is restartable: run the same command again after an interruption and it carries on without
 * duplicating an event (a store holds one generated bank: its business calendar is the history's). Every generated customer's password is SEED_PASSWORD
 * (hashed once). Its last line is one JSON object.
 */
import { closePasswordWorkers, hashSecret } from '@bank/api';
import { loadChainKeys } from '@bank/commands';
import { loadCheckpointKeys, parseCheckpointSettings } from '@bank/integrity';
import { createEventStore } from '@bank/eventstore';
import { createLogger, createPool, createProgressReporter, ensureDatabase, loadConfig } from '@bank/platform';
import { createProjectorMetrics, migrateReadModels } from '@bank/projector';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { loadGeneratedBank } from './loadGeneratedBank';
import { seedCalendar } from './seedCalendar';
import { SEED_PASSWORD } from './seedPassword';

const USAGE = `Usage: npm run seed:scale -- [--customers N] [--transactions N] [--seed N] [--history-end YYYY-MM-DD] [--appends] [--workers N] [--unlogged]
  --customers N     customers (default 1000)
  --transactions N  rows of the customers' transaction lists (default 10 per customer): staff postings, and a fifth
                    of them transfers (two rows each between customers, one for each to another bank)
  --seed N          the plan's seed (default 42): the same seed plans the same bank
  --history-end D   the history's last business date, YYYY-MM-DD (default 2026-01-31: the 2025 history and the
                    month after it); the history is 396 days up to it, each closed, interest paid at each month's end
  --appends         write through the store's appends (restartable, into a store that may hold events already)
                    instead of the bulk load (COPY into an EMPTY store: refused when it is not)
  --workers N       the bulk load's generating threads (default 0: the loading thread generates; on a machine with
                    cores to spare, 2 or more spread the deciders and hashing over them)
  --unlogged        let the rebuild build UNLOGGED tables (a fresh database with nothing live)`;

function wholeNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0) throw new Error(`--${name} must be a whole number, got ${JSON.stringify(value)}\n${USAGE}`);
  return number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      customers: { type: 'string' },
      transactions: { type: 'string' },
      seed: { type: 'string' },
      'history-end': { type: 'string' },
      unlogged: { type: 'boolean', default: false },
      appends: { type: 'boolean', default: false },
      workers: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return console.log(USAGE);
  const customers = wholeNumber('customers', values.customers, 1_000);
  const transactions = wholeNumber('transactions', values.transactions, customers * 10);
  const seed = wholeNumber('seed', values.seed, 42);
  // Also checks --history-end before anything is opened.
  const historyDays = seedCalendar(values['history-end']).days;

  const config = loadConfig();
  const logger = createLogger('seed-scale', config.LOG_LEVEL);
  await ensureDatabase(config.DATABASE_URL);
  const pool = createPool(config.DATABASE_URL, 8);
  const store = await createEventStore(config, { pool, logger });
  const progress = createProgressReporter({ print: (line) => logger.info(line) });
  try {
    await migrateReadModels(pool);
    const passwordHash = await hashSecret(SEED_PASSWORD).finally(closePasswordWorkers);
    const { seeded, loadSeconds, loadCpuSeconds, rebuilt, checkpointSeconds, bulk } = await loadGeneratedBank({
      pool,
      store,
      customers,
      transactions,
      seed,
      historyEnd: values['history-end'],
      bulk: !values.appends,
      workers: wholeNumber('workers', values.workers, 0),
      passwordHash,
      chainKeys: loadChainKeys(config, process.env, logger),
      onProgress: ({ customers: done }) => progress.update({ phase: 'seed customers', done, total: customers, unit: 'customers' }),
      onDays: ({ days, events }) => progress.update({ phase: 'seed days', done: days, total: historyDays, unit: 'days', detail: `${events} events` }),
      rebuild: {
        logger,
        metrics: createProjectorMetrics(),
        unlogged: values.unlogged,
        onProgress: (update) => progress.update({ phase: `rebuild ${update.phase}`, done: update.events, unit: 'events' }),
      },
      // The bank's signed checkpoints over the load (CHECKPOINT_DIR, CHECKPOINT_KEYS), so its first start has none to write.
      checkpoints: { dir: parseCheckpointSettings(config, process.env).dir, keys: loadCheckpointKeys(config, process.env, logger) },
    });
    progress.stop();
    const { rows } = await pool.query<{ bytes: string }>('SELECT pg_database_size(current_database())::text AS bytes');
    console.log(
      JSON.stringify({
        customers: seeded.customers,
        transactions: seeded.transactions,
        postings: seeded.postings,
        internalTransfers: seeded.internalTransfers,
        externalTransfers: seeded.externalTransfers,
        verifications: seeded.verifiers.length,
        businessDays: seeded.businessDays,
        interestPayments: seeded.interestPayments,
        interestPaidCents: Number(seeded.interestPaidCents),
        contacts: seeded.contacts,
        events: seeded.events,
        seed,
        loadSeconds: Math.round(loadSeconds * 10) / 10,
        rebuildSeconds: Math.round(rebuilt.durationMs / 100) / 10,
        checkpointSeconds: Math.round((checkpointSeconds ?? bulk?.checkpointSeconds ?? 0) * 10) / 10,
        path: bulk ? 'bulk' : 'appends',
        eventsPerSecond: Math.round(seeded.events / loadSeconds),
        // Events per CPU-second of this process: what the load costs the machine, whatever else runs on it.
        eventsPerCpuSecond: Math.round(seeded.events / loadCpuSeconds),
        ...(bulk ? { indexSeconds: Math.round(bulk.indexSeconds * 10) / 10 } : {}),
        loadAverage: loadavg().map((value) => value.toFixed(2)).join(' '),
        databaseBytes: Number(rows[0]!.bytes),
      }),
    );
  } finally {
    progress.stop();
    await store.close();
    await pool.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
