import { randomUUID } from 'node:crypto';
import { DomainError, streams, type AccountCommand } from '@bank/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistoryBuilder, type Actor } from '../../testing/historyBuilder';
import { createStatementTestApp, type StatementTestApp } from '../statements/testing/statementTestApp';
import { balancesAt, replayBalancesAt } from './balancesAt';
import { boundedBalancesAt, DISORDER_MS, isIndexedEventStore, LOOKAHEAD_EVENTS, REPLAY_INSTEAD } from './balancesAtBounded';

/**
 * The bounded balances-at against the whole replay on a generated history: an account driven through the domain's
 * deciders by a seeded random mix of every money command (balance edits of both accounts, staff postings, deletions,
 * transfer debits left pending then completed or failed and refunded, credits, the account closed and a refund
 * after), with instants that tie. Compares whole answers at many instants and counts the events each read.
 */
const START = Date.parse('2025-05-01T00:00:00.000Z');
const COMMANDS = 420;
const PAGE = 40;
const COUNTED_PAGE = 20;

let t: StatementTestApp;
let userId = '';
let admin: Actor;
/** Every event time of the account stream, in order (occurredAt). */
let times: number[] = [];

/** mulberry32: a small seeded generator, so a failure replays the same history. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Posted {
  readonly id: string;
  readonly account: 'savings' | 'checking';
  readonly direction: 'credit' | 'debit';
  readonly amountCents: number;
  readonly description: string;
  readonly transferId: string | null;
}

async function generate(builder: ReturnType<typeof createHistoryBuilder>, random: () => number): Promise<void> {
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const posted: Posted[] = [];
  const pending: { transactionId: string; transferId: string; account: 'savings' | 'checking'; amountCents: number }[] = [];
  let clock = START + 60_000;
  const run = async (command: (now: string) => AccountCommand) => {
    // Steps of 0 ms (ties), a second, a minute or an hour; one event in five dated up to 50 minutes back (the
    // generated bank's disorder, within DISORDER_MS).
    clock += pick([0, 0, 1_000, 60_000, 3_600_000]);
    const now = new Date(random() < 0.2 ? clock - Math.floor(random() * 50 * 60_000) : clock);
    try {
      await builder.account(userId, command(now.toISOString()), admin, now);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error; // a refusal (a balance too low, say) is part of the mix
    }
  };
  for (let n = 0; n < COMMANDS; n += 1) {
    const account = pick(['savings', 'checking'] as const);
    const amountCents = 1 + Math.floor(random() * 50_000);
    const roll = random();
    if (n === COMMANDS - 40) {
      await run((now) => ({ type: 'CloseAccount', adminId: admin.id, now }));
    } else if (roll < 0.12) {
      const ids = { savings: randomUUID(), checking: randomUUID() };
      await run((now) => ({ type: 'AdjustBalances', adminId: admin.id, savingsCents: Math.floor(random() * 900_000), checkingCents: Math.floor(random() * 900_000), transactionIds: ids, now }));
    } else if (roll < 0.45) {
      const id = randomUUID();
      const direction = random() < 0.7 ? 'credit' : 'debit';
      const description = `Posting ${n}`;
      await run((now) => ({ type: 'PostStaffTransaction', transactionId: id, adminId: admin.id, account, direction, amountCents, date: now, description, now }));
      posted.push({ id, account, direction, amountCents, description, transferId: null });
    } else if (roll < 0.55 && posted.length > 0) {
      const original = pick(posted);
      await run((now) => ({ type: 'ReverseTransaction', transactionId: randomUUID(), reversedTransactionId: original.id, original, adminId: admin.id, now }));
    } else if (roll < 0.7) {
      const transfer = { transactionId: randomUUID(), transferId: randomUUID(), account, amountCents: 1 + Math.floor(amountCents / 10) };
      await run((now) => ({ type: 'DebitForTransfer', ...transfer, description: `Transfer ${n}`, now }));
      pending.push(transfer);
    } else if (roll < 0.85 && pending.length > 0) {
      const transfer = pending.splice(Math.floor(random() * pending.length), 1)[0]!;
      const failed = random() < 0.4;
      await run((now) => ({ type: 'SetTransactionStatus', transactionId: transfer.transactionId, status: failed ? 'failed' : 'completed', now }));
      if (failed) {
        await run((now) => ({ type: 'RefundTransfer', transactionId: randomUUID(), transferId: transfer.transferId, refundOf: transfer.transactionId, account: transfer.account, amountCents: transfer.amountCents, description: `Refund ${n}`, now }));
      }
    } else {
      await run((now) => ({ type: 'CreditForTransfer', transactionId: randomUUID(), transferId: randomUUID(), account, amountCents, description: `Credit ${n}`, now }));
    }
  }
}

beforeAll(async () => {
  t = await createStatementTestApp('balances_at_bounded');
  const builder = createHistoryBuilder(t.store);
  admin = { id: randomUUID(), role: 'admin' };
  userId = await builder.register({ firstName: 'Random', lastName: 'History', email: `random.${randomUUID()}@example.com`, accountNumber: '4000000888' }, new Date(START));
  await generate(builder, seeded(27));
  times = (await t.store.readStream(streams.account(userId))).map((event) => Date.parse(String(event.metadata.occurredAt)));
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** The instants asked: before everything, at, just before and just after sampled events (ties included), after all. */
function instants(): Date[] {
  const random = seeded(5);
  const sampled = Array.from({ length: 14 }, () => times[Math.floor(random() * times.length)]!);
  const around = sampled.flatMap((time) => [time - 1, time, time + 1]);
  return [START - 1, START, ...around, times.at(-1)! + 60_000].map((time) => new Date(time));
}

describe('balances-at from a bounded read, on a generated history', () => {
  it('has a history worth the name: hundreds of events, both accounts, deletions, failures, a closed account', async () => {
    const types = (await t.store.readStream(streams.account(userId))).map((event) => event.type);
    expect(types.length).toBeGreaterThan(400);
    for (const type of ['BalanceAdjusted', 'StaffTransactionPosted', 'TransactionReversed', 'AccountDebited', 'TransactionStatusChanged', 'AccountCredited', 'AccountClosed']) {
      expect(types).toContain(type);
    }
    expect(new Set(times).size).toBeLessThan(times.length); // instants that tie
    const back = times.filter((time, index) => index > 0 && time < times[index - 1]!).length;
    expect(back).toBeGreaterThan(20); // and events dated before the one before them
    expect(isIndexedEventStore(t.store)).toBe(true);
  });

  it('answers exactly what the whole replay answers, at every instant and for every count of newest transactions', async () => {
    for (const at of instants()) {
      const replayed = await replayBalancesAt(t.store, userId, at, { newest: 200 });
      for (const [newest, pageSize] of [[1, 1], [7, 3], [7, PAGE], [200, PAGE]] as const) {
        const bounded = await boundedBalancesAt(t.store as Parameters<typeof boundedBalancesAt>[0], userId, at, { newest, pageSize });
        expect(bounded).not.toBe(REPLAY_INSTEAD);
        // The newest first: the replay's list cut to `newest` is what a replay for `newest` answers.
        expect(bounded, `${at.toISOString()} newest ${newest} page ${pageSize}`).toEqual(replayed && { ...replayed, transactions: replayed.transactions.slice(0, newest) });
      }
    }
  });

  it('reads a bounded number of events: two binary searches, a few pages, the look-ahead and four look-ups, not the history', async () => {
    const total = times.length;
    const customerEvents = (await t.store.readStream(streams.customer(userId))).length;
    const middle = new Date(times[Math.floor(total / 2)]!);
    const read = { bounded: 0, replayed: 0, reads: 0 };
    const answer = await balancesAt(t.store, userId, middle, {
      newest: 7,
      pageSize: COUNTED_PAGE,
      onPage: (events) => {
        read.bounded += events;
        read.reads += 1;
      },
    });
    const replayed = await replayBalancesAt(t.store, userId, middle, { newest: 7, pageSize: COUNTED_PAGE, onPage: (events) => (read.replayed += events) });
    expect(answer).toEqual(replayed);
    expect(answer?.events).toBeGreaterThan(total / 3);
    // The customer stream, the head, two binary searches of ⌈log2 n⌉ single events, at most three pages (the four
    // hours around the instant, and back to the 7 newest money events), the look-ahead, the first event, and the 3
    // events found by look-up.
    const bound = customerEvents + 1 + 2 * Math.ceil(Math.log2(total)) + 3 * COUNTED_PAGE + LOOKAHEAD_EVENTS + 1 + 3;
    expect(read.bounded).toBeLessThanOrEqual(bound);
    expect(read.replayed).toBe(total + customerEvents);
    expect(read.bounded).toBeLessThan(read.replayed / 2);
  });
});

describe('balances-at when the stream breaks its assumptions', () => {
  it('replays the whole history when times step back, and answers what that replay answers', async () => {
    const builder = createHistoryBuilder(t.store);
    const id = await builder.register({ firstName: 'Skewed', lastName: 'Clock', email: `skewed.${randomUUID()}@example.com`, accountNumber: '4000000999' }, new Date(START));
    // A clock that stepped back further than DISORDER_MS: the third posting is dated three of them before the second.
    const step = DISORDER_MS;
    for (const [n, steps] of [1, 5, 2, 6, 7].entries()) {
      const now = new Date(START + steps * step);
      await builder.account(id, { type: 'PostStaffTransaction', transactionId: randomUUID(), adminId: admin.id, account: 'checking', direction: 'credit', amountCents: 100 * (n + 1), date: now.toISOString(), description: `Skewed ${n}`, now: now.toISOString() }, admin, now);
    }
    for (const steps of [0.5, 1, 2, 3, 4, 5, 5.5, 6, 8]) {
      const at = new Date(START + steps * step);
      const replayed = await replayBalancesAt(t.store, id, at);
      expect(await balancesAt(t.store, id, at), `at +${steps} steps`).toEqual(replayed);
      // Every read of this short stream sees the step back, and gives way to the whole replay.
      expect(await boundedBalancesAt(t.store as Parameters<typeof boundedBalancesAt>[0], id, at)).toBe(REPLAY_INSTEAD);
    }
  });
});
