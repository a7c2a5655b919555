/**
 * `npm run projections:rebuild [-- --batch-size 10000 --parallel 3 --ahead 4 --unlogged --held-rows 2000000 --keys-during-load --no-verify]`: builds the read models
 * afresh from position 0 beside the live ones and swaps them in (docs/projections.md, "Rebuild"). The API keeps
 * answering throughout; a running projector pauses only for the swap.
 *
 * Progress: a bar with rate and ETA on a terminal, a log line every 5 % (or 100,000 events) otherwise. Exit status
 * 2 when the verification finds mismatches, 1 on an error.
 */
import { createEventStore } from '@bank/eventstore';
import { createLogger, createPool, createProgressReporter, ensureDatabase, loadConfig } from '@bank/platform';
import { parseArgs } from 'node:util';
import { createProjectorMetrics } from '../metrics/projectorMetrics';
import { rebuildProjections, type RebuildProgress } from '../rebuild/rebuildProjections';
import { verifyReadModels } from '../verify/verifyReadModels';

const USAGE = `Usage: npm run projections:rebuild -- [--batch-size N] [--parallel N] [--ahead N] [--unlogged] [--held-rows N] [--keys-during-load] [--no-verify]
  --batch-size N  events per read and per batch (default 10000)
  --parallel N    connections loading independent projections at once (default 3)
  --ahead N       batches folded and not yet written, at most (default 4; 1: each batch written before the next
                  one's writes start)
  --unlogged      build UNLOGGED tables (faster, for a load with nothing live: see docs/projections.md)
  --held-rows N   rows of a held table (the balances) kept in memory over the load (default 2000000; 0: none,
                  the balances are updated batch by batch)
  --keys-during-load
                  keep every primary key through the load (by default those of the transactions and the staff audit
                  log, rows inserted once at random keys, are built after it)
  --no-verify     skip the replay of every account afterwards (it holds every account in memory)`;

class UsageError extends Error {}

/** An integer option of at least `min` (a blank or fractional value is refused), or undefined when not given. */
function integerOption(name: string, value: string | undefined, min: 0 | 1): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !Number.isInteger(number) || number < min) {
    throw new UsageError(`--${name} must be ${min === 0 ? '0 or ' : ''}a positive integer, got ${JSON.stringify(value)}\n${USAGE}`);
  }
  return number;
}

async function main(): Promise<void> {
  const options = {
    'batch-size': { type: 'string' },
    parallel: { type: 'string' },
    unlogged: { type: 'boolean', default: false },
    'held-rows': { type: 'string' },
    ahead: { type: 'string' },
    'keys-during-load': { type: 'boolean', default: false },
    'no-verify': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  } as const;
  let values: ReturnType<typeof parseArgs<{ options: typeof options }>>['values'];
  try {
    values = parseArgs({ options }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) return console.log(USAGE);
  const batchSize = integerOption('batch-size', values['batch-size'], 1);
  const parallel = integerOption('parallel', values.parallel, 1);
  const heldRowLimit = integerOption('held-rows', values['held-rows'], 0);
  const ahead = integerOption('ahead', values.ahead, 1);

  const config = loadConfig();
  const logger = createLogger('projections-rebuild', config.LOG_LEVEL);
  await ensureDatabase(config.DATABASE_URL);
  const pool = createPool(config.DATABASE_URL, (parallel ?? 3) + 4);
  const store = await createEventStore(config, { pool, logger });
  try {
    // On PostgreSQL a position's token is its global sequence number: about the number of events so far.
    const head = config.EVENTSTORE_URL ? undefined : await store.headPosition();
    const total = head ? Number(store.positionToken(head)) : undefined;
    const progress = createProgressReporter({ print: (line) => logger.info(line) });
    const onProgress = (update: RebuildProgress) =>
      progress.update({ phase: `rebuild ${update.phase}`, done: update.events, unit: 'events', ...(total && update.phase === 'load' ? { total: Math.max(total, update.events) } : {}) });
    const result = await rebuildProjections({ pool, store, logger, metrics: createProjectorMetrics(), batchSize, parallel, unlogged: values.unlogged, keysAfterLoad: !values['keys-during-load'], onProgress, ...(heldRowLimit !== undefined ? { heldRowLimit } : {}), ...(ahead !== undefined ? { ahead } : {}) });
    progress.stop();
    console.log(
      `Rebuilt the read models: ${result.events} events in ${(result.durationMs / 1000).toFixed(1)} s (${result.eventsPerSecond} events/s: ` +
        `load ${(result.phaseMs.load / 1000).toFixed(1)} s, indexes ${(result.phaseMs.indexes / 1000).toFixed(1)} s, catch-up ${(result.phaseMs.catchUp / 1000).toFixed(1)} s), ` +
        `position ${result.position ?? '(empty log)'}; projector paused ${result.swapMs.toFixed(0)} ms for the swap.`,
    );
    if (values['no-verify']) return;
    const verified = await verifyReadModels({ pool, store });
    console.log(`Verification: ${verified.ok ? 'ok' : `${verified.mismatches.length} mismatches`} over ${verified.checked} accounts.`);
    if (!verified.ok) process.exitCode = 2;
  } finally {
    await store.close();
    await pool.end();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof UsageError ? error.message : error);
  process.exit(1);
});
