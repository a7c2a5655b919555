import { randomUUID } from 'node:crypto';
import { handleCommand, loadStream, type DomainEventLike } from '@bank/core';
import {
  accountDecider,
  accountNumberReservationDecider,
  customerDecider,
  evolveTransfer,
  initialTransferState,
  streams,
  type AccountState,
  type Decider,
  type TransferEvent,
  type TransferState,
} from '@bank/domain';
import { comparePositions, createEventStore, type EventStore, type Position } from '@bank/eventstore';
import { createLogger, createPool } from '@bank/platform';
import { createTestDatabase, createTestRedis, type TestDatabase, type TestRedis } from '@bank/platform/testing';
import type pg from 'pg';
import { loadAccount } from '../transfers/transferProcess';

/**
 * Test fixtures for the transfer process: a fresh database with the PostgreSQL event store, a Redis prefix of its
 * own, and customers registered, opened and funded through the domain's deciders (the same events the API appends).
 */
export interface TransferFixture {
  readonly db: TestDatabase;
  readonly redis: TestRedis;
  readonly pool: pg.Pool;
  readonly store: EventStore;
  readonly adminId: string;
  /**
   * The position of the latest event appended through `store` in this process. (The PostgreSQL store's
   * headPosition only shows events below the cluster's oldest running transaction, which other test suites on
   * the same server hold back; this is what a test waits for instead.)
   */
  lastPosition(): Position | undefined;
  openCustomer(options?: OpenCustomerOptions): Promise<TestCustomer>;
  /** Replayed balances (cents) of a customer's account stream. */
  balances(userId: string): Promise<{ savings: number; checking: number }>;
  account(userId: string): Promise<AccountState>;
  transfer(transferId: string): Promise<TransferState>;
  /** The types of a transfer stream's events, in order. */
  transferEvents(transferId: string): Promise<string[]>;
  close(): Promise<void>;
}

export interface OpenCustomerOptions {
  readonly savingsCents?: number;
  readonly checkingCents?: number;
  /** A bcrypt hash; omitted = no payment pin. */
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
  const adminId = randomUUID();

  async function run<C, E extends DomainEventLike, S>(decider: Decider<C, E, S>, streamId: string, command: C, actorId: string, role: 'customer' | 'admin') {
    return handleCommand({
      store,
      streamId,
      evolve: decider.evolve,
      initialState: decider.initialState,
      decide: (state) => decider.decide(command, state),
      context: { metadata: { actorId, actorRole: role, schemaVersion: 1 } },
    });
  }

  return {
    db,
    redis,
    pool,
    store,
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
      if (options.pinHash) await run(customerDecider, streams.customer(userId), { type: 'SetPaymentPin', adminId, pinHash: options.pinHash, now }, adminId, 'admin');
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
      const { state } = await loadAccount(store, userId);
      return state.status === 'unopened' ? { savings: 0, checking: 0 } : { ...state.balances };
    },
    async account(userId) {
      return (await loadAccount(store, userId)).state;
    },
    async transfer(transferId) {
      return (await loadStream<TransferState, TransferEvent>(store, streams.transfer(transferId), evolveTransfer, initialTransferState)).state;
    },
    async transferEvents(transferId) {
      return (await store.readStream(streams.transfer(transferId))).map((e) => e.type);
    },
    async close() {
      await inner.close().catch(() => undefined);
      await pool.end().catch(() => undefined);
      await redis.clean().catch(() => undefined);
      await db.drop().catch(() => undefined);
    },
  };
}
