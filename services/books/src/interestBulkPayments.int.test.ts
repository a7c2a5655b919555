import { randomUUID } from 'node:crypto';
import { createCommandHandler, verifyChain, type CommandHandler } from '@bank/commands';
import { accountDecider, streams, type AccountKind } from '@bank/domain';
import type { RecordedEvent } from '@bank/eventstore';
import { parseKeyringText, type Keyring } from '@bank/platform';
import { createTransferFixture, type TransferFixture } from '@bank/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appendInRounds,
  bulkStoreOf,
  interestPayment,
  payInterestByCommand,
  payInterestInBulk,
  planInterestPayments,
  settleInterestPayments,
  type BulkStore,
  type InterestPaymentRequest,
} from './interestBulkPayments';

/**
 * The month end's bulk path (PostgreSQL): the payments it appends are the ones the command handler appends (same
 * ids, data, metadata, hash chain), each once, and a stream moved between its read and its append is left to the
 * command handler, whose stale cached states recover by the conflict retry.
 */
const MONTH = '2028-01';
const DATE = '2028-01-31';
const NOW = '2028-01-31T23:00:00.000Z';

let fx: TransferFixture;
let keys: Keyring;
/** The COB's handler: keyed chain, a fixed clock (so that two paths' events can be compared byte for byte). */
let commands: CommandHandler;
let bulk: BulkStore;

const payment = (userId: string, account: AccountKind, amountCents: number): InterestPaymentRequest =>
  interestPayment({ userId, account, amountCents, accruedUnits: String(amountCents * 365_000_000 + 7), carryUnits: '7' }, MONTH, DATE, NOW);

async function stream(userId: string): Promise<RecordedEvent[]> {
  return fx.store.readStream(streams.account(userId));
}

async function staff(handler: CommandHandler, userId: string, account: AccountKind, direction: 'credit' | 'debit', amountCents: number): Promise<void> {
  await handler.execute({
    decider: accountDecider,
    streamId: streams.account(userId),
    decide: (state) =>
      accountDecider.decide(
        { type: 'PostStaffTransaction', transactionId: randomUUID(), adminId: fx.adminId, account, direction, amountCents, date: NOW, description: 'Staff', now: NOW },
        state,
      ),
    context: { metadata: { actorId: fx.adminId, actorRole: 'admin' } },
    commandType: 'PostStaffTransaction',
  });
}

function expectChainIntact(events: readonly RecordedEvent[]): void {
  expect(verifyChain(events, keys)).toBeUndefined();
}

beforeAll(async () => {
  fx = await createTransferFixture('interest_bulk');
  keys = parseKeyringText('chain', 'CHAIN_KEYS', `k1:${Buffer.alloc(32, 7).toString('base64')}`);
  commands = createCommandHandler({ store: fx.store, chainKeys: keys, now: () => new Date(NOW) });
  bulk = bulkStoreOf(fx.store)!;
});

afterAll(async () => {
  await fx?.close();
});

describe('interest payments in bulk', () => {
  it('are the events the command handler appends, byte for byte', async () => {
    const a = await fx.openCustomer({ savingsCents: 1_000_00, checkingCents: 500_00 });
    const b = await fx.openCustomer({ savingsCents: 25_000_00 });
    const requests = [payment(a.userId, 'checking', 3), payment(a.userId, 'savings', 425), payment(b.userId, 'savings', 10_616)];
    const plan = await planInterestPayments(bulk, commands, requests);
    expect(plan.fallback).toEqual([]);
    expect(plan.appends.map((one) => one.expectedRevision)).toEqual([2n, 3n, 1n]);

    // The one-by-one path on the same streams: its stored events are the plan's.
    for (const request of requests) await payInterestByCommand(commands, request);
    for (const planned of plan.appends) {
      const stored = (await fx.store.readStream(planned.stream, { fromRevision: (planned.expectedRevision as bigint) + 1n, limit: 1 }))[0]!;
      const event = planned.events[0]!;
      expect({ id: stored.id, type: stored.type, data: stored.data, metadata: stored.metadata }).toEqual({ id: event.id, type: event.type, data: event.data, metadata: event.metadata });
    }
    expect((await stream(a.userId)).at(-1)!.data).toMatchObject({ account: 'savings', amountCents: 425, balanceAfterCents: 1_004_25, description: 'Interest' });

    // Appending the plan now stores nothing: every payment is already there.
    const outcomes = await bulk.appendMany(plan.appends);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['duplicate', 'duplicate', 'duplicate']);
    expectChainIntact(await stream(a.userId));
    expectChainIntact(await stream(b.userId));
  });

  it('pays each account once: asked again, every payment is found stored; the chains verify', async () => {
    const customers = await Promise.all([1_000_00, 50, 12_345_67].map((savingsCents) => fx.openCustomer({ savingsCents, checkingCents: 10_00 })));
    const requests = customers.flatMap((customer, index) => [payment(customer.userId, 'checking', 1 + index), payment(customer.userId, 'savings', 100 + index)]);
    const first = await payInterestInBulk(bulk, commands, requests);
    expect(first).toMatchObject({ settled: 6, fallback: [] });
    const after = await Promise.all(customers.map((customer) => stream(customer.userId)));

    // Asked again: each first payment is a duplicate; the second, chained on this run's wrapping of the first (which
    // is not the stored one), is not sent but left to the command handler, which finds it paid: a no-op.
    const again = await payInterestInBulk(bulk, commands, requests);
    expect(again).toMatchObject({ settled: 3, fallback: requests.filter((_, index) => index % 2 === 1) });
    for (const request of again.fallback) await payInterestByCommand(commands, request, true);
    for (const [index, customer] of customers.entries()) {
      const events = await stream(customer.userId);
      expect(events).toHaveLength(after[index]!.length);
      expect(events.filter((event) => event.data.description === 'Interest').map((event) => event.data.amountCents)).toEqual([1 + index, 100 + index]);
      expect(await fx.balances(customer.userId)).toEqual({ checking: 10_00 + 1 + index, savings: [1_000_00, 50, 12_345_67][index]! + 100 + index });
      expectChainIntact(events);
    }
  });

  it('leaves a stream the customer moved meanwhile to the command handler: paid once, on the right balance', async () => {
    const customer = await fx.openCustomer({ savingsCents: 1_000_00 });
    const other = await fx.openCustomer({ savingsCents: 2_000_00 });
    const requests = [payment(customer.userId, 'savings', 425), payment(other.userId, 'savings', 850)];
    const plan = await planInterestPayments(bulk, commands, requests);
    // The customer's transfer lands between the read of the tails and the append (another process's handler).
    await staff(fx.commands, customer.userId, 'savings', 'debit', 100_00);
    const outcome = settleInterestPayments(plan, await bulk.appendMany(plan.appends));
    expect(outcome.settled).toBe(1);
    expect(outcome.fallback).toEqual([requests[0]]);
    for (const request of outcome.fallback) await payInterestByCommand(commands, request, true);

    expect(await fx.balances(customer.userId)).toEqual({ savings: 900_00 + 425, checking: 0 });
    const events = await stream(customer.userId);
    expect(events.filter((event) => event.data.description === 'Interest').map((event) => event.data.balanceAfterCents)).toEqual([900_00 + 425]);
    expectChainIntact(events);
    expect(await fx.balances(other.userId)).toEqual({ savings: 2_000_00 + 850, checking: 0 });
  });

  it("sends a customer's second payment only after the first was appended: one move meanwhile breaks no chain", async () => {
    const customer = await fx.openCustomer({ savingsCents: 1_000_00, checkingCents: 300_00 });
    const requests = [payment(customer.userId, 'checking', 2), payment(customer.userId, 'savings', 425)];
    const plan = await planInterestPayments(bulk, commands, requests);
    expect(plan.appends.map((one) => one.expectedRevision)).toEqual([2n, 3n]);
    // One event lands meanwhile: the stream stands at the revision the second payment expects, on another hash.
    await staff(fx.commands, customer.userId, 'checking', 'debit', 10_00);
    const calls: number[] = [];
    const counting = { appendMany: (appends: Parameters<BulkStore['appendMany']>[0]) => (calls.push(appends.length), bulk.appendMany(appends)) };
    const outcomes = await appendInRounds(counting, plan.appends);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['conflict', 'conflict']);
    expect(calls).toEqual([1]);
    const outcome = settleInterestPayments(plan, outcomes);
    expect(outcome).toEqual({ settled: 0, fallback: requests });
    for (const request of outcome.fallback) await payInterestByCommand(commands, request, true);
    expect(await fx.balances(customer.userId)).toEqual({ checking: 290_00 + 2, savings: 1_000_00 + 425 });
    expectChainIntact(await stream(customer.userId));
  });

  it('appends a chunk in one call per payment of a customer (customers owed on both accounts: two)', async () => {
    const customers = await Promise.all([1, 2, 3].map(() => fx.openCustomer({ savingsCents: 1_000_00, checkingCents: 10_00 })));
    const requests = [payment(customers[0]!.userId, 'savings', 1), ...customers.map((customer) => payment(customer.userId, 'checking', 2))];
    const calls: string[][] = [];
    const counting: BulkStore = { streamTails: bulk.streamTails, appendMany: (appends) => (calls.push(appends.map((one) => one.stream)), bulk.appendMany(appends)) };
    const outcome = await payInterestInBulk(counting, commands, requests);
    expect(outcome).toMatchObject({ settled: 4, fallback: [] });
    const ids = customers.map((customer) => streams.account(customer.userId));
    expect(calls).toEqual([ids, [ids[0]]]);
    // The latest position of the chunk's payments: the second call's, the first customer's second payment.
    expect(outcome.last).toEqual((await stream(customers[0]!.userId)).at(-1)!.position);
    for (const customer of customers) expectChainIntact(await stream(customer.userId));
  });

  it('asks the tails only for the account kinds the chunk pays, and credits each on its own balance', async () => {
    // The savings customer's last event is a checking move: the savings balance is found further back.
    const moved = await fx.openCustomer({ savingsCents: 2_000_00, checkingCents: 50_00 });
    await staff(fx.commands, moved.userId, 'checking', 'debit', 5_00);
    const both = await fx.openCustomer({ savingsCents: 300_00, checkingCents: 40_00 });
    const asked: unknown[][] = [];
    const counting: BulkStore = { streamTails: (ids, queries) => (asked.push([...(queries ?? [])]), bulk.streamTails(ids, queries)), appendMany: bulk.appendMany };

    expect(await payInterestInBulk(counting, commands, [payment(moved.userId, 'savings', 812)])).toMatchObject({ settled: 1, fallback: [] });
    expect(await payInterestInBulk(counting, commands, [payment(both.userId, 'checking', 3), payment(both.userId, 'savings', 122)])).toMatchObject({ settled: 2, fallback: [] });
    expect(asked).toEqual([[{ account: 'savings' }], [{ account: 'checking' }, { account: 'savings' }]]);

    expect(await fx.balances(moved.userId)).toEqual({ savings: 2_000_00 + 812, checking: 45_00 });
    expect((await stream(moved.userId)).at(-1)!.data).toMatchObject({ account: 'savings', amountCents: 812, balanceAfterCents: 2_000_00 + 812 });
    expect(await fx.balances(both.userId)).toEqual({ savings: 300_00 + 122, checking: 40_00 + 3 });
    expectChainIntact(await stream(moved.userId));
    expectChainIntact(await stream(both.userId));
  });

  it("recovers a command handler's stale cached state by its conflict retry", async () => {
    const customer = await fx.openCustomer({ savingsCents: 1_000_00 });
    // The handler caches the account (a deposit through it), then the bulk path pays it behind the handler's back.
    await staff(commands, customer.userId, 'savings', 'credit', 1_00);
    const conflictsBefore = commands.stats().conflicts;
    expect(await payInterestInBulk(bulk, commands, [payment(customer.userId, 'savings', 425)])).toMatchObject({ settled: 1, fallback: [] });

    // A withdrawal decided on the stale state conflicts once and is decided again on the stream as it is.
    await staff(commands, customer.userId, 'savings', 'debit', 50_00);
    expect(commands.stats().conflicts).toBe(conflictsBefore + 1);
    expect(await fx.balances(customer.userId)).toEqual({ savings: 1_001_00 + 425 - 50_00, checking: 0 });
    expect(await commands.read(accountDecider, streams.account(customer.userId), (state) => (state.status === 'unopened' ? undefined : { ...state.balances }))).toEqual({
      savings: 1_001_00 + 425 - 50_00,
      checking: 0,
    });

    // The payment asked again through the handler (the fallback path) is a no-op on the fresh state.
    const before = await stream(customer.userId);
    await payInterestByCommand(commands, payment(customer.userId, 'savings', 425), true);
    const events = await stream(customer.userId);
    expect(events).toHaveLength(before.length);
    expectChainIntact(events);
  });
});
