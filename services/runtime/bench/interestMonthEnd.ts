/**
 * `npm run bench:interest-month-end` (`-- --accounts 5000`): one close of business on a month's last day, through
 * the real COB (createCob, manual business date) with its interest step: the accrual of every account, its booking,
 * then the month's payments — one PayInterest command per account owed, INTEREST_PAYMENT_CONCURRENCY (default 16)
 * at a time — and the month's close, with a projector in this process. On a database of its own; prints the time of
 * the close and the payments per second (what a million accounts owed would take follows from it).
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { createCob, interestStep } from '@bank/books';
import { createCommandHandler } from '@bank/commands';
import { accountDecider, streams, type AccountCommand } from '@bank/domain';
import { createPostgresEventStore, ensureEventStoreSchema } from '@bank/eventstore';
import { createPool, manualClock } from '@bank/platform';
import { startProjector } from '@bank/projector';
import { createBenchDatabase, dropBenchDatabase } from './lib/benchDatabase';

const { values: args } = parseArgs({ options: { accounts: { type: 'string' }, concurrency: { type: 'string' } } });
const accounts = Number(args.accounts ?? 5_000);
const concurrency = Number(args.concurrency ?? 16);
const DATE = '2028-01-31';

const { name, url } = await createBenchDatabase(`bank_bench_interest_${Date.now()}`);
const pool = createPool(url, 24);
try {
  await ensureEventStoreSchema(pool);
  const store = createPostgresEventStore({ pool });
  const commands = createCommandHandler({ store });
  const clock = manualClock(`${DATE}T12:00:00.000Z`);
  let started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < accounts) {
        next += 1;
        const userId = randomUUID();
        const run = (command: AccountCommand) =>
          commands.execute({
            decider: accountDecider,
            streamId: streams.account(userId),
            decide: (state) => accountDecider.decide(command, state),
            context: { metadata: { actorRole: 'admin' } },
            commandType: command.type,
          });
        const now = clock.now().toISOString();
        await run({ type: 'OpenAccount', userId, accountNumber: String(7_000_000_000 + next), now });
        await run({ type: 'PostStaffTransaction', transactionId: randomUUID(), adminId: userId, account: 'savings', direction: 'credit', amountCents: 100_000 + next, date: DATE, description: 'Deposit', now });
      }
    }),
  );
  console.log(`${accounts} accounts opened and funded in ${Math.round(performance.now() - started) / 1000} s`);
  const projector = startProjector({ pool, store, batchSize: 5_000 });
  await projector.ready;
  const cob = createCob({
    mode: 'manual',
    commands,
    store,
    pool,
    clock,
    startDate: DATE,
    steps: {
      standingOrders: async () => {},
      interest: interestStep({ commands, store, pool, clock, projectorWaitMs: 600_000, paymentConcurrency: concurrency }),
    },
  });
  started = performance.now();
  const { closed } = await cob.advance(1);
  const seconds = (performance.now() - started) / 1000;
  const paid = (await store.readStream(streams.businessDays())).find((event) => event.type === 'InterestMonthClosed')?.data as { paidAccounts: number } | undefined;
  const figures = { accounts, concurrency, closed: closed.join(','), closeSeconds: Math.round(seconds * 100) / 100, paidAccounts: paid?.paidAccounts ?? 0, paymentsPerSecond: Math.round((paid?.paidAccounts ?? 0) / seconds) };
  console.log(JSON.stringify(figures));
  await projector.stop();
  await store.close();
} finally {
  await pool.end();
  await dropBenchDatabase(name);
}
