import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountDecider, accountSnapshot, foldEvents, isDomainError, type AccountCommand, type AccountEvent, type AccountState } from '@bank/domain';
import { createEventStore, type EventStore } from '@bank/eventstore';
import { createPool } from '@bank/platform';
import { createTestDatabase, type TestDatabase } from '@bank/testkit';
import type pg from 'pg';
import { commandRecipe, runAccountHistory } from '../../../domain/src/testing/randomHistory';
import { toNewEvents } from './commandContext';
import { createCommandHandler, type CommandHandler } from './commandHandler';
import { verifyChain } from './hashChain';
import { createPostgresSnapshotStore, ensureSnapshotSchema, type SnapshotStore } from './snapshotStore';

const ADMIN = '00000000-0000-4000-8000-00000000000a';
let db: TestDatabase;
let pool: pg.Pool;
let store: EventStore;
let snapshots: SnapshotStore;

beforeAll(async () => {
  db = await createTestDatabase('commands');
  pool = createPool(db.url, 20);
  store = await createEventStore({ EVENTSTORE_URL: undefined }, { pool });
  await ensureSnapshotSchema(pool);
  snapshots = createPostgresSnapshotStore(pool);
});

afterAll(async () => {
  await store?.close();
  await pool?.end();
  await db?.drop();
});

const context = (commandId?: string) => ({ metadata: { actorId: ADMIN, actorRole: 'admin' as const }, ...(commandId ? { commandId } : {}) });

/** A handler as a separate process would have it: its own cache and queues. */
function handler(options: { snapshotEvery?: number; withSnapshots?: boolean } = {}): CommandHandler {
  return createCommandHandler({ store, ...(options.withSnapshots === false ? {} : { snapshots }), snapshotEvery: options.snapshotEvery ?? 500 });
}

function account(commands: CommandHandler, streamId: string, command: AccountCommand, commandId?: string) {
  return commands.execute({ decider: accountDecider, streamId, decide: (state) => accountDecider.decide(command, state), context: context(commandId), commandType: command.type });
}

async function openAccount(commands: CommandHandler, checkingCents = 0): Promise<string> {
  const userId = randomUUID();
  const streamId = `account-${userId}`;
  await account(commands, streamId, { type: 'OpenAccount', userId, accountNumber: '1234567890', now: new Date().toISOString() });
  if (checkingCents > 0) await post(commands, streamId, 'credit', checkingCents);
  return streamId;
}

function post(commands: CommandHandler, streamId: string, direction: 'credit' | 'debit', amountCents: number, transactionId = randomUUID()) {
  return account(commands, streamId, {
    type: 'PostStaffTransaction',
    transactionId,
    adminId: ADMIN,
    account: 'checking',
    direction,
    amountCents,
    date: '2025-01-01',
    description: 'Staff posting',
    now: new Date().toISOString(),
  });
}

const encoded = (state: AccountState) => {
  const json = accountSnapshot.encode(state);
  return { ...json, balances: json.balances ?? { savings: 0, checking: 0 } };
};
const currentState = (commands: CommandHandler, streamId: string) => commands.read(accountDecider, streamId, (state) => encoded(state));

async function replayed(streamId: string): Promise<unknown> {
  const events = await store.readStream(streamId);
  return encoded(foldEvents(accountDecider.evolve, accountDecider.initialState, events.map((e) => ({ type: e.type, data: e.data }) as AccountEvent)));
}

describe('one writer per stream in a process', () => {
  it('8 concurrent staff postings to one account all succeed, with an exact balance and no conflict', async () => {
    const commands = handler();
    const streamId = await openAccount(commands);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => post(commands, streamId, 'credit', 100 + i)));
    expect(results.every((r) => r.events.length === 1)).toBe(true);
    expect((await currentState(commands, streamId)).balances).toEqual({ savings: 0, checking: 8 * 100 + 28 });
    expect(commands.stats().conflicts).toBe(0);
    expect(await replayed(streamId)).toEqual(await currentState(commands, streamId));
  });

  it('decides queued commands in order, each seeing the ones before: 20 debits of $10 from $100 give 10 debits and 10 refusals', async () => {
    const commands = handler();
    const streamId = await openAccount(commands, 100_00);
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => post(commands, streamId, 'debit', 10_00)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
    const refusals = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    expect(refusals.every((e) => isDomainError(e) && e.code === 'insufficient_balance')).toBe(true);
    expect((await currentState(commands, streamId)).balances.checking).toBe(0);
  });
});

describe('several processes on one stream', () => {
  it('8 handlers (8 processes) posting at once all succeed within their retries, and the balance is exact', async () => {
    const setup = handler();
    const streamId = await openAccount(setup);
    const processes = Array.from({ length: 8 }, () => handler());
    const results = await Promise.all(processes.flatMap((commands) => Array.from({ length: 5 }, () => post(commands, streamId, 'credit', 1_00))));
    expect(results).toHaveLength(40);
    expect((await currentState(handler(), streamId)).balances.checking).toBe(40_00);
    expect(await replayed(streamId)).toEqual(await currentState(handler(), streamId));
  });

  it('a stale cache never refuses wrongly: the refusal is checked against the stream first', async () => {
    const a = handler();
    const b = handler();
    const streamId = await openAccount(a, 100);
    await currentState(b, streamId);
    await post(a, streamId, 'credit', 50_000);
    // b's cache says 1 dollar; the stream holds 501 dollars.
    const debit = await post(b, streamId, 'debit', 300_00);
    expect(debit.events).toHaveLength(1);
    expect((await currentState(b, streamId)).balances.checking).toBe(50_100 - 300_00);
  });

  it('a command retried after it was stored appends nothing new', async () => {
    const commands = handler();
    const streamId = await openAccount(commands);
    const id = randomUUID();
    await post(commands, streamId, 'credit', 500, id);
    const again = await post(handler(), streamId, 'credit', 500, id);
    expect(again.events).toEqual([]);
    expect((await store.readStream(streamId)).length).toBe(2);
  });
});

describe('cost per command at any history length', () => {
  it('reads only the tail since the cached revision on a stream of 5,000 events', async () => {
    const streamId = `account-${randomUUID()}`;
    const userId = streamId.slice('account-'.length);
    // 5,000 events appended directly (a long history), chained as the handler would.
    const events: AccountEvent[] = [{ type: 'AccountOpened', data: { userId, accountNumber: '1234567890', openedAt: new Date().toISOString() } }];
    let balance = 0;
    for (let i = 1; i < 5_000; i += 1) {
      balance += 1;
      events.push({
        type: 'StaffTransactionPosted',
        data: { transactionId: randomUUID(), account: 'checking', amountCents: 1, direction: 'credit', description: 'x', status: 'completed', occurredAt: '2025-01-01T00:00:00.000Z', balanceAfterCents: balance, adminId: ADMIN, postedAt: '2025-01-01T00:00:00.000Z' },
      });
    }
    let head: { revision: bigint | undefined; lastHash: string | null } = { revision: undefined, lastHash: null };
    for (let i = 0; i < events.length; i += 500) {
      const chunk = toNewEvents(streamId, events.slice(i, i + 500), head, context(), new Date());
      const result = await store.append(streamId, chunk, head.revision === undefined ? 'no_stream' : head.revision);
      head = { revision: result.nextExpectedRevision, lastHash: String(chunk.at(-1)!.metadata!.hash) };
    }

    const commands = handler({ withSnapshots: false });
    await post(commands, streamId, 'credit', 1);
    expect(commands.stats().eventsRead).toBe(5_000); // cold: the whole stream, once
    const warm = commands.stats().eventsRead;
    for (let i = 0; i < 20; i += 1) await post(commands, streamId, 'credit', 1);
    expect(commands.stats().eventsRead - warm).toBe(0); // warm: nothing read

    // Another process appends 3 events: the next command reads those 3 (after one conflict), not the history.
    const other = handler({ withSnapshots: false });
    await other.read(accountDecider, streamId, () => undefined);
    for (let i = 0; i < 3; i += 1) await post(other, streamId, 'credit', 1);
    const before = commands.stats().eventsRead;
    await post(commands, streamId, 'credit', 1);
    expect(commands.stats().eventsRead - before).toBe(3);
    expect((await currentState(commands, streamId)).balances.checking).toBe(4_999 + 25);
  });

  it('a cold process starts from the snapshot and reads only the events after it', async () => {
    const writer = handler({ snapshotEvery: 100 });
    const streamId = await openAccount(writer);
    for (let i = 0; i < 250; i += 1) await post(writer, streamId, 'credit', 1);
    await writer.flush();
    const cold = handler({ snapshotEvery: 100 });
    await post(cold, streamId, 'credit', 1);
    expect(cold.stats().snapshotsLoaded).toBe(1);
    expect(cold.stats().eventsRead).toBeLessThan(100);
    expect(await currentState(cold, streamId)).toEqual(await replayed(streamId));
  });
});

describe('a stream expected to be new', () => {
  /** The store with its stream reads counted. */
  function countingReads(): { store: EventStore; reads: () => number } {
    let reads = 0;
    const counted: EventStore = {
      ...store,
      readStream: (streamId, options) => {
        reads += 1;
        return store.readStream(streamId, options);
      },
    };
    return { store: counted, reads: () => reads };
  }
  const open = (commands: CommandHandler, streamId: string, userId: string, expectNew: boolean) =>
    commands.execute({
      decider: accountDecider,
      streamId,
      decide: (state) => accountDecider.decide({ type: 'OpenAccount', userId, accountNumber: '1234567890', now: new Date().toISOString() }, state),
      context: context(),
      commandType: 'OpenAccount',
      expectNew,
    });

  it('is decided and appended without reading it first', async () => {
    const counting = countingReads();
    const commands = createCommandHandler({ store: counting.store });
    const userId = randomUUID();
    const result = await open(commands, `account-${userId}`, userId, true);
    expect(result.events.map((event) => event.type)).toEqual(['AccountOpened']);
    expect(counting.reads()).toBe(0);
  });

  it('is decided again on the stream as stored when it exists after all, with the outcome a read would give', async () => {
    const userId = randomUUID();
    const streamId = `account-${userId}`;
    await open(handler(), streamId, userId, false);
    await post(handler(), streamId, 'credit', 500);
    const counting = countingReads();
    const commands = createCommandHandler({ store: counting.store });
    // Opening again is refused on the real stream (it is open), as after a read; not a second AccountOpened on an
    // assumed empty one.
    await expect(open(commands, streamId, userId, true)).rejects.toThrow('Account already opened');
    await expect(open(handler(), streamId, userId, false)).rejects.toThrow('Account already opened');
    expect(counting.reads()).toBeGreaterThan(0);
    expect((await store.readStream(streamId)).map((event) => event.type)).toEqual(['AccountOpened', 'StaffTransactionPosted']);
    expect(await currentState(commands, streamId)).toEqual(await replayed(streamId));
  });
});

describe('snapshots are a cache (property)', () => {
  it('snapshot at any split point plus the tail equals the full fold; after a restart, with no snapshot, and after a version change', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(commandRecipe, { minLength: 3, maxLength: 30 }), async (recipes) => {
        const { events } = runAccountHistory(recipes);
        const streamId = `account-${randomUUID()}`;
        const wrapped = toNewEvents(streamId, events, { revision: undefined, lastHash: null }, context(), new Date());
        await store.append(streamId, wrapped, 'no_stream');
        const whole = await replayed(streamId);
        for (let split = 1; split <= events.length; split += 1) {
          const prefix = foldEvents(accountDecider.evolve, accountDecider.initialState, events.slice(0, split));
          await snapshots.save({ streamId, aggregate: 'account', stateVersion: accountDecider.stateVersion, revision: BigInt(split - 1), lastHash: String(wrapped[split - 1]!.metadata!.hash), state: accountSnapshot.encode(prefix) });
          // A new handler is a restarted process: nothing cached.
          expect(await currentState(handler(), streamId)).toEqual(whole);
          await pool.query('DELETE FROM commands.snapshots WHERE stream_id = $1', [streamId]);
        }
        expect(await currentState(handler(), streamId)).toEqual(whole);
        // A snapshot of another state version is ignored (the shape changed): the full fold again.
        await snapshots.save({ streamId, aggregate: 'account', stateVersion: accountDecider.stateVersion + 1, revision: 0n, lastHash: null, state: { status: 'garbage' } });
        expect(await currentState(handler(), streamId)).toEqual(whole);
      }),
      { numRuns: 15 },
    );
  });
});

describe('a retried command decided on a stale cached state', () => {
  it('keeps the stored events, not its own, when the stored duplicate ends where its expected revision would', async () => {
    const a = handler();
    // Another process, with another clock: its events' metadata and hashes differ from what `a` would compute.
    const b = createCommandHandler({ store, now: () => new Date('2025-01-02T03:04:05.000Z') });
    const streamId = await openAccount(a, 10_000);
    const transactionId = randomUUID();
    // b stores the command first; a, whose cache is one event behind, is asked the same command (same id) again.
    const command: AccountCommand = { type: 'PostStaffTransaction', transactionId, adminId: ADMIN, account: 'checking', direction: 'credit', amountCents: 500, date: '2025-01-01', description: 'Staff posting', now: '2025-01-02T03:04:05.000Z' };
    const commandId = `retried-${transactionId}`;
    expect((await account(b, streamId, command, commandId)).events).toHaveLength(1);
    expect((await account(a, streamId, command, commandId)).duplicate).toBe(true);
    await post(a, streamId, 'debit', 100);
    expect(verifyChain(await store.readStream(streamId))).toBeUndefined();
    expect(await currentState(a, streamId)).toEqual(await replayed(streamId));
  });
});
