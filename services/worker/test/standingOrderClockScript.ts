/**
 * The worker as a process of its own on a clock the test steps, for the standing-order crash test: startWorker (the
 * transfer process, settlement jobs and the standing-order runner, as `npm run worker` composes them) with a manual
 * clock instead of the system's. Nothing here is a test double: only the time is the test's.
 *
 *   CLOCK_STEPS  JSON array of ISO instants; the clock starts at CLOCK_STEPS[CLOCK_START] (the runner's tick at start
 *                runs then), and is set to each next instant in turn, the runner ticking at each
 *   CLOCK_START  the index to start from (a restarted process goes on where the killed one was)
 *   HOLD_AT      `<fault point>:<n>`: the n-th time this process reaches that point of a transfer it prints
 *                `HOLD <point>` and hangs there, for the test to kill it with SIGKILL mid-payment (faults.ts)
 *
 * Prints `TICKING <i>` before the tick of step i (the start's included), `STEP <i> DONE` after it and the payments it
 * requested were credited (the transfer process's work, as time passes between two instants), and `ALL DONE`
 * when every step is done (then waits for SIGTERM). DATABASE_URL, REDIS_URL, REDIS_PREFIX and the transfer settings
 * (STANDING_ORDER_CATCH_UP_DAYS, …) as the worker reads them.
 */
import { createCommandHandler, createPostgresSnapshotStore } from '@bank/commands';
import { createEventStore } from '@bank/eventstore';
import { createLogger, createPool, manualClock, parseConfig, sleep } from '@bank/platform';
import { createTransferSignals, faultPoints, parseTransferSettings, readTransfer, type FaultHook, type FaultPoint, type OccurrenceOutcome } from '@bank/transfers';
import { startWorker } from '../src/startWorker';

const steps = JSON.parse(process.env.CLOCK_STEPS ?? '[]') as string[];
const start = Number(process.env.CLOCK_START ?? '0');
if (!Number.isInteger(start) || start < 0 || start >= steps.length) throw new Error(`CLOCK_START ${process.env.CLOCK_START} is not a step of CLOCK_STEPS`);

function holdAt(spec: string | undefined): FaultHook {
  if (!spec) return async () => undefined;
  const [point = '', nth = '1'] = spec.split(':');
  if (!(faultPoints as readonly string[]).includes(point)) throw new Error(`Unknown fault point ${point}`);
  let hits = 0;
  return async (reached: FaultPoint) => {
    if (reached !== point) return;
    hits += 1;
    if (hits !== Number(nth)) return;
    process.stdout.write(`HOLD ${point}\n`);
    await new Promise<never>(() => {
      // hangs until the test kills the process
    });
  };
}

const config = parseConfig(process.env);
const settings = parseTransferSettings(process.env);
const logger = createLogger('standing-order-clock', config.LOG_LEVEL);
const pool = createPool(config.DATABASE_URL, 8);
const store = await createEventStore(config, { pool });
const commands = createCommandHandler({ store, snapshots: createPostgresSnapshotStore(pool) });
const signals = createTransferSignals({ pool });
const clock = manualClock(steps[start]!);
const worker = await startWorker({
  config: { ...config, ...settings },
  store,
  pool,
  commands,
  signals,
  logger,
  clock,
  fault: holdAt(process.env.HOLD_AT),
  sweepOnStart: false,
});

/**
 * Time passes between two instants of the clock: the transfer process (in this worker) finishes the payments the
 * tick requested — so a process held at a point of a credit is held before the next step, as in a real day.
 */
async function untilFinished(outcomes: readonly OccurrenceOutcome[]): Promise<void> {
  for (const { outcome } of outcomes) {
    if (outcome.status !== 'paid') continue;
    while (!['credited', 'settled', 'refunded'].includes((await readTransfer(commands, outcome.transferId)).phase)) await sleep(10);
  }
}

// The runner's tick at start ran at CLOCK_STEPS[start] once this instance leads (the killed one's lock is released
// when PostgreSQL sees its connection close).
process.stdout.write(`TICKING ${start}\n`);
await worker.standingOrders.ready;
while (worker.standingOrders.status() !== 'leader') await sleep(50);
await untilFinished(await worker.standingOrders.tick());
process.stdout.write(`STEP ${start} DONE\n`);
for (let step = start + 1; step < steps.length; step += 1) {
  clock.set(steps[step]!);
  process.stdout.write(`TICKING ${step}\n`);
  await untilFinished(await worker.standingOrders.tick());
  process.stdout.write(`STEP ${step} DONE\n`);
}
process.stdout.write('ALL DONE\n');

process.once('SIGTERM', () => {
  void (async () => {
    await worker.stop();
    await signals.close();
    await store.close();
    await pool.end();
    process.exit(0);
  })();
});
