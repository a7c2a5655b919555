import { randomUUID } from 'node:crypto';
import { createCommandHandler, createPostgresSnapshotStore, ensureSnapshotSchema, type CommandHandler } from '@bank/commands';
import {
  accountDecider,
  accountNumberReservationDecider,
  customerDecider,
  emptyAccountHistory,
  evolveAccountHistory,
  foldEvents,
  isAccountEvent,
  parseEvent,
  streams,
  transferDecider,
  type AccountHistory,
  type Decider,
  type TransferState,
} from '@bank/domain';
import { comparePositions, createEventStore, type EventStore, type Position } from '@bank/eventstore';
import { createLogger, createPool, parseKeyringText, type Keyring } from '@bank/platform';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from './testServices';
import { createTransferSignals, hashPin, type TransferSignals } from '@bank/transfers';
import type pg from 'pg';

/**
 * Test fixtures for money movements: a fresh database with the PostgreSQL event store, a Redis prefix of its own, the
 * process's command handler and transfer signals, and customers registered, opened and funded through the domain's
 * deciders (the same events the API appends).
 */
export interface TransferFixture {
  readonly db: TestDatabase;
  readonly redis: TestRedis;
  readonly pool: pg.Pool;
  readonly store: EventStore;
  readonly commands: CommandHandler;
  readonly signals: TransferSignals;
  readonly pinKeys: Keyring;
  /** PIN_KEYS as the environment gives it to a child process. */
  readonly pinKeysText: string;
  readonly adminId: string;
  /**
   * The position of the latest event appended through `store` in this process. (The PostgreSQL store's headPosition
   * only shows events below the cluster's oldest running transaction, which other test suites on the same server hold
   * back; this is what a test waits for instead.)
   */
  lastPosition(): Position | undefined;
  openCustomer(options?: OpenCustomerOptions): Promise<TestCustomer>;
  /** Balances (cents) replayed from the customer's account stream. */
  balances(userId: string): Promise<{ savings: number; checking: number }>;
  /** The auditors' fold of the customer's account stream (every transaction with its status). */
  history(userId: string): Promise<AccountHistory>;
  transfer(transferId: string): Promise<TransferState>;
  /** The types of a transfer stream's events, in order. */
  transferEvents(transferId: string): Promise<string[]>;
  close(): Promise<void>;
}

export interface OpenCustomerOptions {
  readonly savingsCents?: number;
  readonly checkingCents?: number;
  /** A payment pin (stored as the bank stores it); omitted = no pin. */
  readonly pin?: string;
  /** A pin hash as stored (e.g. a bcrypt hash from before the keyed scheme). */
  readonly pinHash?: string;
  readonly accountNumber?: string;
  readonly firstName?: string;
  readonly lastName?: string;
  readonly blocked?: boolean;
  readonly role?: 'customer' | 'admin' | 'auditor';
}

export interface TestCustomer {
  readonly userId: string;
  readonly accountNumber: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
}

let accountNumberSeed = Math.floor(Math.random() * 1_000_000);

/** A fresh 10-digit account number (never 0000000000, the rejected one). */
export function freshAccountNumber(): string {
  accountNumberSeed += 1;
  return `7${String(process.pid % 1000).padStart(3, '0')}${String(accountNumberSeed % 1_000_000).padStart(6, '0')}`;
}

export const TEST_PIN_KEYS = `t1:${Buffer.alloc(32, 42).toString('base64')}`;

export async function createTransferFixture(label: string): Promise<TransferFixture> {
  const [db, redis] = await Promise.all([createTestDatabase(label), createTestRedis()]);
  const pool = createPool(db.url, 10);
  const inner = await createEventStore({ EVENTSTORE_URL: undefined }, { pool, logger: createLogger('eventstore-test') });
  let last: Position | undefined;
  const store: EventStore = Object.assign(Object.create(inner) as EventStore, {
    async append(...args: Parameters<EventStore['append']>) {
      const result = await inner.append(...args);
      if (!last || comparePositions(result.position, last) > 0) last = result.position;
      return result;
    },
  });
  await ensureSnapshotSchema(pool);
  const commands = createCommandHandler({ store, snapshots: createPostgresSnapshotStore(pool) });
  const signals = createTransferSignals({ pool });
  const pinKeys = parseKeyringText('pin', 'PIN_KEYS', TEST_PIN_KEYS);
  const adminId = randomUUID();

  async function run<C, E extends { type: string; data: object }, S>(decider: Decider<C, E, S>, streamId: string, command: C, actorId: string, role: 'customer' | 'admin') {
    return commands.execute({
      decider,
      streamId,
      decide: (state) => decider.decide(command, state),
      context: { metadata: { actorId, actorRole: role } },
      commandType: String((command as { type?: string }).type),
    });
  }

  async function history(userId: string): Promise<AccountHistory> {
    const events = await store.readStream(streams.account(userId));
    return foldEvents(
      (state: AccountHistory, event: ReturnType<typeof parseEvent>) => (isAccountEvent(event) ? evolveAccountHistory(state, event) : state),
      emptyAccountHistory(),
      events.map((e) => parseEvent(e.type, e.data)),
    );
  }

  return {
    db,
    redis,
    pool,
    store,
    commands,
    signals,
    pinKeys,
    pinKeysText: TEST_PIN_KEYS,
    adminId,
    lastPosition: () => last,
    async openCustomer(options = {}) {
      const userId = randomUUID();
      const accountNumber = options.accountNumber ?? freshAccountNumber();
      const now = new Date().toISOString();
      const firstName = options.firstName ?? 'Test';
      const lastName = options.lastName ?? `Customer ${accountNumber.slice(-4)}`;
      const email = `${userId}@example.com`;
      await run(accountNumberReservationDecider, streams.accountNumber(accountNumber), { type: 'ReserveAccountNumber', accountNumber, userId }, userId, 'customer');
      await run(
        customerDecider,
        streams.customer(userId),
        {
          type: 'RegisterCustomer',
          userId,
          firstName,
          lastName,
          email,
          phone: '555-0100',
          address: '1 Test Street',
          state: 'NY',
          passwordHash: '$2b$04$notarealhashnotarealhashnotarealhashnotarealhash',
          accountNumber,
          role: options.role ?? 'customer',
          now,
        },
        userId,
        'customer',
      );
      await run(accountDecider, streams.account(userId), { type: 'OpenAccount', userId, accountNumber, now }, userId, 'customer');
      const pinHash = options.pinHash ?? (options.pin ? hashPin(pinKeys, userId, options.pin) : undefined);
      if (pinHash) await run(customerDecider, streams.customer(userId), { type: 'SetPaymentPin', adminId, pinHash, now }, adminId, 'admin');
      if (options.blocked) await run(customerDecider, streams.customer(userId), { type: 'BlockCustomer', adminId, now }, adminId, 'admin');
      for (const [account, cents] of [
        ['savings', options.savingsCents ?? 0],
        ['checking', options.checkingCents ?? 0],
      ] as const) {
        if (cents > 0) {
          await run(
            accountDecider,
            streams.account(userId),
            { type: 'PostStaffTransaction', transactionId: randomUUID(), adminId, account, direction: 'credit', amountCents: cents, date: now, description: 'Opening deposit', now },
            adminId,
            'admin',
          );
        }
      }
      return { userId, accountNumber, firstName, lastName, email };
    },
    async balances(userId) {
      const { balances } = await history(userId);
      return { ...balances };
    },
    history,
    async transfer(transferId) {
      return commands.read(transferDecider, streams.transfer(transferId), (state) => state);
    },
    async transferEvents(transferId) {
      return (await store.readStream(streams.transfer(transferId))).map((e) => e.type);
    },
    async close() {
      await signals.close().catch(() => undefined);
      await commands.flush().catch(() => undefined);
      await inner.close().catch(() => undefined);
      await pool.end().catch(() => undefined);
      await redis.clean().catch(() => undefined);
      await db.drop().catch(() => undefined);
    },
  };
}
