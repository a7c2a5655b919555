/**
 * `npm run bench:interest-month-end` (`-- --accounts 100000 --compare 20000`): one close of business on a month's
 * last day, through the real COB (createCob, manual business date) with its interest step: the accrual of every
 * account, its booking, then the month's payments and the month's close, with a projector in this process. Twice,
 * each on a database of its own: `--accounts` owed with the bulk path (PostgreSQL: a chunk of accounts' tails in one
 * read and their payments in one append call), and `--compare` owed (0: skipped) with the one-by-one path (one
 * PayInterest command per account, INTEREST_PAYMENT_CONCURRENCY at a time, what EventStoreDB does). The close starts
 * once the projector has applied the seeded accounts. Prints the time of each close, of its accrual (the close's
 * start to the day's InterestBooked: the accrual of every account and its booking), of the payments (the booking to
 * the month's close, the read models showing every account paid), the payments per second and the load average.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createCob, interestStep } from '@bank/books';
import { createCommandHandler } from '@bank/commands';
import { accountDecider, streams, type AccountEvent, type AccountState } from '@bank/domain';
import { createPostgresEventStore, ensureEventStoreSchema, type EventStore, type StreamAppend } from '@bank/eventstore';
import { createLogger, createPool, manualClock } from '@bank/platform';
import { startProjector } from '@bank/projector';
import { createBenchDatabase, dropBenchDatabase } from './lib/benchDatabase';

const { values: args } = parseArgs({ options: { accounts: { type: 'string' }, compare: { type: 'string' }, concurrency: { type: 'string' } } });
const accounts = Number(args.accounts ?? 5_000);
const compare = Number(args.compare ?? Math.min(accounts, 20_000));
const concurrency = Number(args.concurrency ?? 16);
const DATE = '2028-01-31';
const load = () => os.loadavg().map((value) => Math.round(value * 100) / 100);

async function monthEnd(label: string, count: number, bulk: boolean): Promise<Record<string, unknown>> {
  const { name, url } = await createBenchDatabase(`bank_bench_interest_${label}_${Date.now()}`);
  const pool = createPool(url, 24);
  try {
    await ensureEventStoreSchema(pool);
    const postgres = createPostgresEventStore({ pool });
    // The one-by-one path is the one a store without the bulk methods gets.
    const store: EventStore = bulk ? postgres : { ...postgres, streamTails: undefined, appendMany: undefined };
    const commands = createCommandHandler({ store });
    const clock = manualClock(`${DATE}T12:00:00.000Z`);
    let started = performance.now();
    // The accounts, opened and funded 500 streams per append call (the events the handler would append).
    const CHUNK = 500;
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < count) {
          const appends: StreamAppend[] = [];
          for (; appends.length < CHUNK && next < count; next += 1) {
            const userId = randomUUID();
            const now = clock.now().toISOString();
            let state: AccountState = accountDecider.initialState;
            const events: AccountEvent[] = [];
            for (const command of [
              { type: 'OpenAccount' as const, userId, accountNumber: String(7_000_000_000 + next), now },
              { type: 'PostStaffTransaction' as const, transactionId: randomUUID(), adminId: userId, account: 'savings' as const, direction: 'credit' as const, amountCents: 100_000 + next, date: DATE, description: 'Deposit', now },
            ]) {
              for (const event of accountDecider.decide(command, state)) {
                state = accountDecider.evolve(state, event);
                events.push(event);
              }
            }
            const streamId = streams.account(userId);
            appends.push({ stream: streamId, events: commands.wrapEvents(streamId, events, { revision: undefined, lastHash: null }, { metadata: { actorRole: 'admin' } }), expectedRevision: 'no_stream' });
          }
          await postgres.appendMany!(appends);
        }
      }),
    );
    const seeded = (performance.now() - started) / 1000;
    started = performance.now();
    const projector = startProjector({ pool, store: postgres, batchSize: 5_000 });
    // The seeded accounts applied before the close starts: the close's time is then the COB's own (accrual, booking,
    // payments, the month's close), not the projector's catching up with the seeding.
    await projector.caughtUp;
    const projected = (performance.now() - started) / 1000;
    const cob = createCob({
      mode: 'manual',
      commands,
      store,
      pool,
      clock,
      startDate: DATE,
      steps: {
        standingOrders: async () => {},
        // No ACH file in this test: nothing to settle.
        achSettlement: async () => undefined,
        interest: interestStep({ commands, store, pool, clock, projectorWaitMs: 1_800_000, paymentConcurrency: concurrency, logger: createLogger('bench') }),
      },
    });
    const loadBefore = load();
    started = performance.now();
    const cobStarted = Date.now();
    const { closed } = await cob.advance(1);
    const seconds = (performance.now() - started) / 1000;
    const days = await postgres.readStream(streams.businessDays());
    const monthClosed = days.find((event) => event.type === 'InterestMonthClosed');
    const booked = days.find((event) => event.type === 'InterestBooked');
    const paid = monthClosed?.data as { paidAccounts: number } | undefined;
    // The payments alone: from the day's booking to the month's close (the read models showing every account paid).
    const paymentSeconds = monthClosed && booked ? (monthClosed.created.getTime() - booked.created.getTime()) / 1000 : NaN;
    // The day's accrual of every account and its booking: from the close's start to the day's InterestBooked.
    const accrualSeconds = booked ? (booked.created.getTime() - cobStarted) / 1000 : NaN;
    await projector.stop();
    await postgres.close();
    return {
      path: bulk ? 'bulk' : 'one-by-one',
      accounts: count,
      concurrency,
      seedSeconds: Math.round(seeded * 10) / 10,
      projectSeconds: Math.round(projected * 10) / 10,
      closed: closed.join(','),
      closeSeconds: Math.round(seconds * 100) / 100,
      accrualSeconds,
      paidAccounts: paid?.paidAccounts ?? 0,
      paymentSeconds,
      paymentsPerSecond: Math.round((paid?.paidAccounts ?? 0) / paymentSeconds),
      loadBefore,
      loadAfter: load(),
    };
  } finally {
    await pool.end();
    await dropBenchDatabase(name);
  }
}

console.log(JSON.stringify(await monthEnd('bulk', accounts, true)));
if (compare > 0) console.log(JSON.stringify(await monthEnd('single', compare, false)));
