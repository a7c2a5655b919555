/**
 * The worker as a process of its own on a clock the test steps, for the standing-order crash test: startWorker (the
 * transfer process, ACH jobs and the close of business, whose first step pays the standing orders, as
 * `npm run worker` composes them) with a manual clock instead of the system's. Nothing here is a test double: only
 * the time is the test's.
 *
 *   CLOCK_STEPS  JSON array of ISO instants; the clock starts at CLOCK_STEPS[CLOCK_START] (the COB's tick at start
 *                runs then), and is set to each next instant in turn, the COB ticking at each (closing every date
 *                before the clock's)
 *   CLOCK_START  the index to start from (a restarted process goes on where the killed one was)
 *   HOLD_AT      `<fault point>:<n>`: the n-th time this process reaches that point of a transfer it prints
 *                `HOLD <point>` and hangs there, for the test to kill it with SIGKILL mid-payment (faults.ts)
 *
 * Prints `TICKING <i>` before the tick of step i (the start's included), `STEP <i> DONE` after it and the payments it
 * requested were credited (the transfer process's work, as time passes between two instants), and `ALL DONE`
 * when every step is done (then waits for SIGTERM). DATABASE_URL, REDIS_URL, REDIS_PREFIX, the transfer settings
 * (STANDING_ORDER_CATCH_UP_DAYS, …) and the books' (COB_TICK_MS) as the worker reads them.
 */
import { createCommandHandler, createPostgresSnapshotStore } from '@bank/commands';
import { createEventStore } from '@bank/eventstore';
import { datesDueForClose } from '@bank/domain';
import { createLogger, createPool, manualClock, parseConfig, sleep } from '@bank/platform';
import { parseBooksSettings, readBusinessDays } from '@bank/books';
import type { Position } from '@bank/eventstore';
import { holdAtFault } from '@bank/testkit';
import { createTransferSignals, faultPoints, parseTransferSettings, readTransfer } from '@bank/transfers';
import { startWorker } from '../src/startWorker';

const steps = JSON.parse(process.env.CLOCK_STEPS ?? '[]') as string[];
const start = Number(process.env.CLOCK_START ?? '0');
if (!Number.isInteger(start) || start < 0 || start >= steps.length) throw new Error(`CLOCK_START ${process.env.CLOCK_START} is not a step of CLOCK_STEPS`);

const config = parseConfig(process.env);
const settings = parseTransferSettings(process.env);
const books = parseBooksSettings(process.env);
const logger = createLogger('standing-order-clock', config.LOG_LEVEL);
const pool = createPool(config.DATABASE_URL, 8);
const store = await createEventStore(config, { pool });
const commands = createCommandHandler({ store, snapshots: createPostgresSnapshotStore(pool) });
const signals = createTransferSignals({ pool });
const clock = manualClock(steps[start]!);
const worker = await startWorker({
  config: { ...config, ...settings, ...books },
  store,
  pool,
  commands,
  signals,
  logger,
  clock,
  fault: holdAtFault(process.env.HOLD_AT, faultPoints),
  sweepOnStart: false,
});

let seen: Position | undefined;

/**
 * Time passes between two instants of the clock: the transfer process (in this worker) finishes the payments the
 * COB made (every OccurrencePaid of the log not looked at yet) — so a process held at a point of a credit is held
 * before the next step, as in a real day.
 */
async function untilFinished(): Promise<void> {
  for (;;) {
    const events = await store.readAll({ ...(seen ? { after: seen } : {}), limit: 1_000 });
    if (events.length === 0) return;
    for (const event of events) {
      seen = event.position;
      if (event.type !== 'OccurrencePaid') continue;
      const transferId = String(event.data.transferId);
      while (!['credited', 'settled', 'refunded'].includes((await readTransfer(commands, transferId)).phase)) await sleep(10);
    }
  }
}

/** A COB tick; a tick that skipped (the killed process's lock not yet released by PostgreSQL) is tried again. */
async function tick(): Promise<void> {
  const today = await worker.calendar.current();
  for (;;) {
    await worker.cobRunner.tick();
    const state = await readBusinessDays(commands);
    if (state.firstDate !== null && datesDueForClose(state, today).length === 0) break;
    await sleep(50);
  }
  await untilFinished();
}

process.stdout.write(`TICKING ${start}\n`);
await worker.cobRunner.ready;
await tick();
process.stdout.write(`STEP ${start} DONE\n`);
for (let step = start + 1; step < steps.length; step += 1) {
  clock.set(steps[step]!);
  process.stdout.write(`TICKING ${step}\n`);
  await tick();
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
