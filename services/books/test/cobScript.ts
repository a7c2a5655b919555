/**
 * The close of business as a process of its own, for the COB crash test (src/cobCrash.int.test.ts): manual business
 * dates (BUSINESS_DATE_MODE=manual, BUSINESS_DATE_START), the COB of @bank/books with its standing-order and
 * interest steps on the real event store and read models. Nothing here is a test double.
 *
 *   COB_UNTIL  the last date to close: the process first finishes a COB begun and cut short (the worker's tick does
 *              that), then advances one date at a time until COB_UNTIL is closed
 *   HOLD_AT    `<fault point>:<n>`: the n-th time this process reaches that point of a COB (cobFaults.ts) it prints
 *              `HOLD <point>` and hangs there, for the test to kill it with SIGKILL
 *
 * Prints `CLOSED <date>` after each close it appended and `ALL DONE` at the end (then exits).
 */
import { createCommandHandler, createPostgresSnapshotStore } from '@bank/commands';
import { createEventStore } from '@bank/eventstore';
import { createLogger, createPool, parseConfig, systemClock } from '@bank/platform';
import { createTransferSignals } from '@bank/transfers';
import { holdAtFault } from '@bank/testkit';
import { cobFaultPoints, createCob, interestStep, parseBooksSettings, standingOrdersStep } from '../src/index';

const until = process.env.COB_UNTIL ?? '';
if (!/^\d{4}-\d{2}-\d{2}$/.test(until)) throw new Error(`COB_UNTIL ${until} is not a date`);

const config = parseConfig(process.env);
const books = parseBooksSettings(process.env);
const logger = createLogger('cob-script', config.LOG_LEVEL);
const pool = createPool(config.DATABASE_URL, 4);
const store = await createEventStore(config, { pool });
const commands = createCommandHandler({ store, snapshots: createPostgresSnapshotStore(pool) });
const signals = createTransferSignals({ pool });
// One hook for the whole COB: the n-th time this process reaches the point, wherever (the pipeline or the interest step).
const fault = holdAtFault(process.env.HOLD_AT, cobFaultPoints);
const cob = createCob({
  mode: books.BUSINESS_DATE_MODE,
  commands,
  store,
  pool,
  clock: systemClock,
  startDate: books.BUSINESS_DATE_START,
  steps: {
    standingOrders: standingOrdersStep({ commands, pool, transfer: { signals, creditWaitMs: 0 }, clock: systemClock, catchUpDays: 3, logger }),
    // No ACH file in this test: nothing to settle.
    achSettlement: async () => undefined,
    interest: interestStep({
      commands,
      store,
      pool,
      clock: systemClock,
      projectorWaitMs: books.COB_PROJECTOR_WAIT_MS,
      paymentConcurrency: books.INTEREST_PAYMENT_CONCURRENCY,
      // Bulk appends of two payments, so that a kill after the first lands in the middle of a page.
      paymentChunk: 2,
      fault,
      logger,
    }),
  },
  fault,
  logger,
});

for (const date of await cob.runDue()) process.stdout.write(`CLOSED ${date}\n`);
for (;;) {
  const { lastClosedDate } = await cob.status();
  if (lastClosedDate !== null && lastClosedDate >= until) break;
  for (const date of (await cob.advance(1)).closed) process.stdout.write(`CLOSED ${date}\n`);
}
process.stdout.write('ALL DONE\n');
await signals.close();
await store.close();
await pool.end();
process.exit(0);
