import { bankEvent, type AccountKind, type BankEvent } from '@bank/domain';
import type { EventMetadata } from '@bank/eventstore';
import { randomUUID } from 'node:crypto';
import type { StreamEvent } from './recordedEvents';
import { seededRandom } from '@bank/platform';

/** A customer the traffic moves money for. */
export interface TrafficUser {
  readonly id: string;
  readonly accountNumber: string;
  readonly balances: Record<AccountKind, number>;
  blocked: boolean;
}

/** One event of an append, as the event store takes it (ids are added by the caller). */
export interface TrafficEvent {
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly metadata: EventMetadata;
}

/** Appends events to a stream (the event store's append, timed by the caller). */
export type TrafficAppend = (stream: string, events: readonly TrafficEvent[]) => Promise<void>;

export type TrafficKind = 'transfer' | 'sign-up' | 'staff';

export interface TrafficOptions {
  readonly users: readonly TrafficUser[];
  readonly adminId: string;
  readonly seed?: number;
  /** Keeps account numbers and e-mails of several runs apart. */
  readonly namespace?: number;
}

/**
 * Live bank traffic as the services write it, built with the domain's event shapes: internal transfers with
 * their six events in the order the request and the worker append them (payer AccountDebited pending with the
 * transferId, TransferRequested + TransferDebited; then payee AccountCredited, payer TransactionStatusChanged
 * completed, TransferCredited), sign-ups (reservations, CustomerRegistered, AccountOpened) and staff edits
 * (deposits, profile changes, blocks, verifications, adjustments). About 80 % of the events are transfers'.
 *
 * Balances stay right for the domain's replay: each balance is computed when its append is queued, and the
 * appends of one stream run one after the other in that order.
 */
export class BankTraffic {
  private readonly rnd: () => number;
  private readonly users: TrafficUser[];
  private readonly tails = new Map<string, Promise<void>>();
  private signUps = 0;
  private readonly namespace: number;
  private readonly asAdmin: EventMetadata;

  constructor(private readonly options: TrafficOptions) {
    this.rnd = seededRandom(options.seed ?? 7);
    this.users = [...options.users];
    this.namespace = options.namespace ?? 9;
    this.asAdmin = { schemaVersion: 1, actorId: options.adminId, actorRole: 'admin' };
  }

  /** Customers with an open account (grows with sign-ups). */
  get customers(): number {
    return this.users.length;
  }

  /** Starts one operation; `done` settles when all its appends have. */
  start(append: TrafficAppend): { kind: TrafficKind; events: number; done: Promise<void> } {
    const roll = this.rnd();
    if (roll < 0.5) {
      const transfer = this.transfer(append);
      if (transfer) return { kind: 'transfer', ...transfer };
    }
    if (roll < 0.58 || this.users.length < 2) return { kind: 'sign-up', ...this.signUp(append) };
    return { kind: 'staff', ...this.staffEdit(append) };
  }

  /** The customers and the admin of a history (the bank the traffic runs in). */
  static usersOf(history: readonly StreamEvent[]): { users: TrafficUser[]; adminId: string } {
    const users = new Map<string, TrafficUser>();
    let adminId: string | undefined;
    for (const { stream, event } of history) {
      const e = event as BankEvent;
      if (e.type === 'CustomerRegistered' && e.data.role === 'admin') adminId ??= e.data.userId;
      if (!stream.startsWith('account-')) continue;
      const id = stream.slice('account-'.length);
      if (e.type === 'AccountOpened') users.set(id, { id, accountNumber: e.data.accountNumber, balances: { savings: 0, checking: 0 }, blocked: false });
      else if ('balanceAfterCents' in e.data && 'account' in e.data) users.get(id)!.balances[e.data.account] = e.data.balanceAfterCents;
    }
    if (!adminId) throw new Error('The history has no admin');
    return { users: [...users.values()], adminId };
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rnd() * list.length)]!;
  }

  /** Queues an append behind the previous one of its stream; `build` runs now, so balances follow queue order. */
  private enqueue(append: TrafficAppend, stream: string, build: () => TrafficEvent[]): Promise<void> {
    const events = build();
    const previous = this.tails.get(stream) ?? Promise.resolve();
    const next = previous.then(() => append(stream, events));
    this.tails.set(stream, next);
    const forget = () => {
      if (this.tails.get(stream) === next) this.tails.delete(stream);
    };
    next.then(forget, forget);
    return next;
  }

  private event(event: BankEvent, metadata: EventMetadata = { schemaVersion: 1 }): TrafficEvent {
    return { type: event.type, data: event.data as Record<string, unknown>, metadata: { schemaVersion: 1, ...metadata } };
  }

  private transfer(append: TrafficAppend): { events: number; done: Promise<void> } | undefined {
    const payer = this.pick(this.users);
    const from: AccountKind = payer.balances.savings >= payer.balances.checking ? 'savings' : 'checking';
    if (payer.balances[from] < 100) return undefined;
    const payee = this.pick(this.users);
    const accountType: AccountKind = this.rnd() < 0.5 ? 'savings' : 'checking';
    if (payee === payer && accountType === from) return undefined;
    const amount = 100 + Math.floor(this.rnd() * Math.min(payer.balances[from] - 99, 50_000));
    const transferId = randomUUID();
    const debitTransactionId = randomUUID();
    const creditTransactionId = randomUUID();
    const asPayer: EventMetadata = { actorId: payer.id, actorRole: 'customer' };
    const asWorker: EventMetadata = { actorRole: 'system' };
    const requestedAt = new Date().toISOString();
    const transferStream = `transfer-${transferId}`;

    const debit = this.enqueue(append, `account-${payer.id}`, () => {
      payer.balances[from] -= amount;
      const data = { transactionId: debitTransactionId, account: from, amountCents: amount, direction: 'debit' as const, description: 'Transfer', transferId, status: 'pending' as const, occurredAt: requestedAt, balanceAfterCents: payer.balances[from] };
      return [this.event(bankEvent('AccountDebited', data), asPayer)];
    });
    const request = this.enqueue(append, transferStream, () => [
      this.event(
        bankEvent('TransferRequested', {
          transferId,
          payerId: payer.id,
          from,
          amountCents: amount,
          accountNumber: payee.accountNumber,
          bankName: 'Our Bank',
          routingNumber: '021000021',
          accountType,
          recipientName: 'Payee',
          description: 'Transfer',
          internal: true,
          payeeId: payee.id,
          requestedAt,
          debitTransactionId,
          creditTransactionId,
          refundTransactionId: randomUUID(),
        }),
        asPayer,
      ),
      this.event(bankEvent('TransferDebited', { transferId, transactionId: debitTransactionId, account: from, amountCents: amount, occurredAt: requestedAt }), asPayer),
    ]);
    // The worker's leg, once the request is stored.
    const done = Promise.all([debit, request]).then(() => {
      const creditedAt = new Date().toISOString();
      return Promise.all([
        this.enqueue(append, `account-${payee.id}`, () => {
          payee.balances[accountType] += amount;
          const data = { transactionId: creditTransactionId, account: accountType, amountCents: amount, direction: 'credit' as const, description: 'Transfer', transferId, status: 'completed' as const, occurredAt: creditedAt, balanceAfterCents: payee.balances[accountType] };
          return [this.event(bankEvent('AccountCredited', data), asWorker)];
        }),
        this.enqueue(append, `account-${payer.id}`, () => [
          this.event(bankEvent('TransactionStatusChanged', { transactionId: debitTransactionId, status: 'completed', previousStatus: 'pending', transferId, occurredAt: creditedAt }), asWorker),
        ]),
        this.enqueue(append, transferStream, () => [
          this.event(bankEvent('TransferCredited', { transferId, transactionId: creditTransactionId, account: accountType, amountCents: amount, occurredAt: creditedAt, payeeId: payee.id }), asWorker),
        ]),
      ]).then(() => undefined);
    });
    return { events: 6, done };
  }

  private signUp(append: TrafficAppend): { events: number; done: Promise<void> } {
    this.signUps += 1;
    const id = randomUUID();
    const n = this.signUps;
    const accountNumber = String(8_000_000_000 + this.namespace * 10_000_000 + n).slice(-10);
    const email = `live${this.namespace}.${n}@example.com`;
    const at = new Date().toISOString();
    const asCustomer: EventMetadata = { actorId: id, actorRole: 'customer' };
    const reservations = Promise.all([
      this.enqueue(append, `email-${email}`, () => [this.event(bankEvent('EmailReserved', { email, userId: id }), asCustomer)]),
      this.enqueue(append, `accountnumber-${accountNumber}`, () => [this.event(bankEvent('AccountNumberReserved', { accountNumber, userId: id }), asCustomer)]),
    ]);
    const done = reservations
      .then(() =>
        Promise.all([
          this.enqueue(append, `customer-${id}`, () => [
            this.event(
              bankEvent('CustomerRegistered', {
                userId: id,
                firstName: 'Live',
                lastName: `Customer${n}`,
                email,
                phone: `555-${n}`,
                address: `${n} Market St`,
                state: 'CA',
                passwordHash: '$2b$10$hash',
                accountNumber,
                role: 'customer',
                registeredAt: at,
              }),
              asCustomer,
            ),
          ]),
          this.enqueue(append, `account-${id}`, () => [this.event(bankEvent('AccountOpened', { userId: id, accountNumber, openedAt: at }), asCustomer)]),
        ]),
      )
      .then(() => {
        this.users.push({ id, accountNumber, balances: { savings: 0, checking: 0 }, blocked: false });
      });
    return { events: 4, done };
  }

  private staffEdit(append: TrafficAppend): { events: number; done: Promise<void> } {
    const user = this.pick(this.users);
    const adminId = this.options.adminId;
    const at = new Date().toISOString();
    const roll = this.rnd();
    if (roll < 0.4) {
      const account: AccountKind = this.rnd() < 0.5 ? 'savings' : 'checking';
      const amount = 1_000 + Math.floor(this.rnd() * 500_000);
      const done = this.enqueue(append, `account-${user.id}`, () => {
        user.balances[account] += amount;
        const data = { transactionId: randomUUID(), account, amountCents: amount, direction: 'credit' as const, description: 'Deposit', status: 'completed' as const, occurredAt: at, balanceAfterCents: user.balances[account], adminId, postedAt: at };
        return [this.event(bankEvent('StaffTransactionPosted', data), this.asAdmin)];
      });
      return { events: 1, done };
    }
    if (roll < 0.5) {
      const account: AccountKind = this.rnd() < 0.5 ? 'savings' : 'checking';
      const done = this.enqueue(append, `account-${user.id}`, () => {
        const previous = user.balances[account];
        const next = previous + 1 + Math.floor(this.rnd() * 10_000);
        user.balances[account] = next;
        const data = { transactionId: randomUUID(), account, amountCents: next - previous, direction: 'credit' as const, description: 'Balance adjustment', status: 'completed' as const, occurredAt: at, balanceAfterCents: next, adminId, reason: 'Correction', previousCents: previous, newCents: next };
        return [this.event(bankEvent('BalanceAdjusted', data), this.asAdmin)];
      });
      return { events: 1, done };
    }
    const stream = `customer-${user.id}`;
    let event: BankEvent;
    if (roll < 0.7) {
      event = bankEvent('ProfileChanged', { before: {}, after: { phone: `555-${Math.floor(this.rnd() * 1e6)}` }, changedBy: adminId, occurredAt: at });
    } else if (roll < 0.85) {
      user.blocked = !user.blocked;
      event = bankEvent(user.blocked ? 'CustomerBlocked' : 'CustomerUnblocked', { adminId, occurredAt: at });
    } else {
      event = bankEvent('VerificationStatusSet', { status: this.rnd() < 0.8 ? 'verified' : 'failed', previousStatus: 'pending', adminId, occurredAt: at });
    }
    return { events: 1, done: this.enqueue(append, stream, () => [this.event(event, this.asAdmin)]) };
  }
}
