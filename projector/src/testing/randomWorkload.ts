import { bankEvent, type AccountKind } from '@bank/domain';
import type { EventMetadata } from '@bank/eventstore';
import type { StreamEvent } from './recordedEvents';
import { seededRandom } from '@bank/platform';

interface Tx {
  readonly id: string;
  readonly account: AccountKind;
  readonly direction: 'credit' | 'debit';
  readonly amount: number;
  readonly description: string;
  reversed: boolean;
  readonly reversible: boolean;
}

interface User {
  readonly id: string;
  readonly accountNumber: string;
  readonly balances: Record<AccountKind, number>;
  readonly txs: Tx[];
  blocked: boolean;
}

export interface WorkloadOptions {
  /** Roughly how many events (the last step may add a few more). */
  readonly events: number;
  readonly seed?: number;
  /** Id namespace, so that several workloads can go into one log. Default 1. */
  readonly namespace?: number;
}

/**
 * A random but valid workload of domain events (valid for the domain's schemas, consistent for its replay: every
 * balanceAfterCents is right and no balance goes below zero): registrations, staff postings, internal and external
 * transfers (settled, or failed and refunded), adjustments, reversals, profile changes, blocks, verifications,
 * card requests, beneficiaries, contact messages and standing orders.
 */
export function generateWorkload(options: WorkloadOptions): StreamEvent[] {
  const rnd = seededRandom(options.seed ?? 42);
  const ns = (options.namespace ?? 1) % 0xffff;
  let counter = 0;
  const nextId = () => {
    counter += 1;
    return `00000000-${ns.toString(16).padStart(4, '0')}-4000-8000-${counter.toString(16).padStart(12, '0')}`;
  };
  let clock = Date.UTC(2025, 0, 1) + ns * 1e9;
  const now = () => new Date((clock += 1000)).toISOString();
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const amount = () => 1 + Math.floor(rnd() * (rnd() < 0.8 ? 5_000 : 500_000));
  const out: StreamEvent[] = [];
  const users: User[] = [];
  const beneficiaries: string[] = [];
  const contacts: string[] = [];
  const orders: { id: string; status: 'active' | 'paused' | 'suspended' | 'cancelled'; day: number }[] = [];

  const adminId = nextId();
  const asAdmin: EventMetadata = { actorId: adminId, actorRole: 'admin' };
  const register = (role: 'customer' | 'admin'): User => {
    const id = role === 'admin' ? adminId : nextId();
    const accountNumber = String(1_000_000_000 + ns * 100_000 + users.length + 1).slice(-10);
    const at = now();
    out.push({
      stream: `customer-${id}`,
      event: bankEvent('CustomerRegistered', {
        userId: id,
        firstName: `First${users.length}`,
        lastName: `Last${users.length}`,
        email: `user${ns}.${users.length}@example.com`,
        phone: `555-${users.length}`,
        address: `${users.length} Main St`,
        state: 'NY',
        passwordHash: '$2b$10$hash',
        accountNumber,
        role,
        registeredAt: at,
      }),
      metadata: { actorId: id, actorRole: 'customer' },
    });
    const user: User = { id, accountNumber, balances: { savings: 0, checking: 0 }, txs: [], blocked: false };
    if (role === 'customer') {
      out.push({ stream: `account-${id}`, event: bankEvent('AccountOpened', { userId: id, accountNumber, openedAt: at }) });
      users.push(user);
    }
    return user;
  };
  register('admin');

  const move = (user: User, account: AccountKind, direction: 'credit' | 'debit', cents: number) => {
    user.balances[account] += direction === 'credit' ? cents : -cents;
    return user.balances[account];
  };

  const steps: (() => void)[] = [
    () => void register('customer'),
    // staff posting
    () => {
      const user = pick(users);
      const account = pick(['savings', 'checking'] as const);
      const direction = rnd() < 0.8 || user.balances[account] === 0 ? 'credit' : 'debit';
      const cents = direction === 'credit' ? amount() : 1 + Math.floor(rnd() * user.balances[account]);
      const id = nextId();
      const at = now();
      out.push({
        stream: `account-${user.id}`,
        event: bankEvent('StaffTransactionPosted', {
          transactionId: id,
          account,
          amountCents: cents,
          direction,
          description: direction === 'credit' ? 'Deposit' : 'Fee',
          status: 'completed',
          occurredAt: at,
          balanceAfterCents: move(user, account, direction, cents),
          adminId,
          postedAt: at,
        }),
        metadata: asAdmin,
      });
      user.txs.push({ id, account, direction, amount: cents, description: 'Staff', reversed: false, reversible: true });
    },
    // transfer, internal or external
    () => {
      const payer = pick(users);
      const from = pick(['savings', 'checking'] as const);
      if (payer.balances[from] < 100) return;
      const cents = 100 + Math.floor(rnd() * (payer.balances[from] - 99));
      const internal = rnd() < 0.6;
      const payee = internal ? pick(users) : undefined;
      const accountType = pick(['savings', 'checking'] as const);
      if (payee === payer && accountType === from) return;
      const transferId = nextId();
      const debitId = nextId();
      const creditId = nextId();
      const refundId = nextId();
      const transfer = `transfer-${transferId}`;
      const asPayer: EventMetadata = { actorId: payer.id, actorRole: 'customer' };
      const at = now();
      out.push({
        stream: transfer,
        event: bankEvent('TransferRequested', {
          transferId,
          payerId: payer.id,
          from,
          amountCents: cents,
          accountNumber: payee ? payee.accountNumber : '9999999999',
          bankName: payee ? 'Our Bank' : 'Other Bank',
          routingNumber: '021000021',
          accountType,
          recipientName: payee ? 'Payee' : 'Someone Else',
          description: 'Transfer',
          internal,
          ...(payee ? { payeeId: payee.id, creditTransactionId: creditId } : {}),
          requestedAt: at,
          debitTransactionId: debitId,
          refundTransactionId: refundId,
        }),
        metadata: asPayer,
      });
      out.push({
        stream: `account-${payer.id}`,
        event: bankEvent('AccountDebited', {
          transactionId: debitId,
          account: from,
          amountCents: cents,
          direction: 'debit',
          description: 'Transfer',
          transferId,
          status: 'pending',
          occurredAt: at,
          balanceAfterCents: move(payer, from, 'debit', cents),
        }),
        metadata: asPayer,
      });
      out.push({ stream: transfer, event: bankEvent('TransferDebited', { transferId, transactionId: debitId, account: from, amountCents: cents, occurredAt: at }) });
      const completeDebit = (status: 'completed' | 'failed') =>
        out.push({
          stream: `account-${payer.id}`,
          event: bankEvent('TransactionStatusChanged', { transactionId: debitId, status, previousStatus: 'pending', transferId, occurredAt: now() }),
        });
      if (payee) {
        const credited = now();
        out.push({
          stream: `account-${payee.id}`,
          event: bankEvent('AccountCredited', {
            transactionId: creditId,
            account: accountType,
            amountCents: cents,
            direction: 'credit',
            description: 'Transfer',
            transferId,
            status: 'completed',
            occurredAt: credited,
            balanceAfterCents: move(payee, accountType, 'credit', cents),
          }),
        });
        payee.txs.push({ id: creditId, account: accountType, direction: 'credit', amount: cents, description: 'Transfer', reversed: false, reversible: true });
        out.push({ stream: transfer, event: bankEvent('TransferCredited', { transferId, transactionId: creditId, account: accountType, amountCents: cents, occurredAt: credited, payeeId: payee.id }) });
        completeDebit('completed');
        payer.txs.push({ id: debitId, account: from, direction: 'debit', amount: cents, description: 'Transfer', reversed: false, reversible: true });
        return;
      }
      out.push({ stream: transfer, event: bankEvent('TransferSent', { transferId, occurredAt: now() }) });
      if (rnd() < 0.7) {
        out.push({ stream: transfer, event: bankEvent('TransferSettled', { transferId, occurredAt: now() }) });
        completeDebit('completed');
        payer.txs.push({ id: debitId, account: from, direction: 'debit', amount: cents, description: 'Transfer', reversed: false, reversible: true });
        return;
      }
      out.push({ stream: transfer, event: bankEvent('TransferFailed', { transferId, reason: 'Rejected', occurredAt: now() }) });
      completeDebit('failed');
      const refunded = now();
      out.push({
        stream: `account-${payer.id}`,
        event: bankEvent('AccountCredited', {
          transactionId: refundId,
          account: from,
          amountCents: cents,
          direction: 'credit',
          description: 'Refund',
          transferId,
          status: 'completed',
          occurredAt: refunded,
          balanceAfterCents: move(payer, from, 'credit', cents),
          refundOf: debitId,
        }),
      });
      out.push({ stream: transfer, event: bankEvent('TransferRefunded', { transferId, transactionId: refundId, account: from, amountCents: cents, occurredAt: refunded }) });
    },
    // balance adjustment
    () => {
      const user = pick(users);
      const account = pick(['savings', 'checking'] as const);
      const previous = user.balances[account];
      const next = Math.floor(rnd() * 1_000_000);
      if (next === previous) return;
      const direction = next > previous ? 'credit' : 'debit';
      const id = nextId();
      out.push({
        stream: `account-${user.id}`,
        event: bankEvent('BalanceAdjusted', {
          transactionId: id,
          account,
          amountCents: Math.abs(next - previous),
          direction,
          description: 'Balance adjustment',
          status: 'completed',
          occurredAt: now(),
          balanceAfterCents: move(user, account, direction, Math.abs(next - previous)),
          adminId,
          reason: null,
          previousCents: previous,
          newCents: next,
        }),
        metadata: asAdmin,
      });
      user.txs.push({ id, account, direction, amount: Math.abs(next - previous), description: 'Adjustment', reversed: false, reversible: true });
    },
    // reversal
    () => {
      const user = pick(users);
      const candidates = user.txs.filter((tx) => tx.reversible && !tx.reversed && (tx.direction === 'debit' || user.balances[tx.account] >= tx.amount));
      if (candidates.length === 0) return;
      const original = pick(candidates);
      const direction = original.direction === 'credit' ? 'debit' : 'credit';
      const id = nextId();
      out.push({
        stream: `account-${user.id}`,
        event: bankEvent('TransactionReversed', {
          transactionId: id,
          account: original.account,
          amountCents: original.amount,
          direction,
          description: `Reversal: ${original.description}`,
          status: 'completed',
          occurredAt: now(),
          balanceAfterCents: move(user, original.account, direction, original.amount),
          reversedTransactionId: original.id,
          adminId,
        }),
        metadata: asAdmin,
      });
      original.reversed = true;
      user.txs.push({ id, account: original.account, direction, amount: original.amount, description: 'Reversal', reversed: false, reversible: false });
    },
    // customer changes
    () => {
      const user = pick(users);
      const stream = `customer-${user.id}`;
      const roll = rnd();
      if (roll < 0.3) {
        out.push({
          stream,
          event: bankEvent('ProfileChanged', { before: {}, after: { phone: `555-${Math.floor(rnd() * 1e6)}` }, changedBy: rnd() < 0.5 ? user.id : adminId, occurredAt: now() }),
        });
      } else if (roll < 0.5) {
        user.blocked = !user.blocked;
        out.push({ stream, event: bankEvent(user.blocked ? 'CustomerBlocked' : 'CustomerUnblocked', { adminId, occurredAt: now() }), metadata: asAdmin });
      } else if (roll < 0.7) {
        out.push({ stream, event: bankEvent('VerificationStatusSet', { status: pick(['verified', 'failed'] as const), previousStatus: 'pending', adminId, occurredAt: now() }), metadata: asAdmin });
      } else if (roll < 0.85) {
        out.push({ stream, event: bankEvent('CardRequested', { requestId: nextId(), cardType: pick(['rewards', 'travel-hotel', null] as const), requestedAt: now() }) });
      } else {
        out.push({ stream, event: bankEvent('PaymentPinSet', { pinHash: '$2b$10$pin', adminId, occurredAt: now() }), metadata: asAdmin });
      }
    },
    // directory
    () => {
      const roll = rnd();
      if (roll < 0.35) {
        const id = nextId();
        beneficiaries.push(id);
        out.push({ stream: 'beneficiaries', event: bankEvent('BeneficiaryAdded', { beneficiaryId: id, name: 'Payee', accountNumber: '8888888888', adminId, occurredAt: now() }), metadata: asAdmin });
      } else if (roll < 0.5 && beneficiaries.length > 0) {
        const id = beneficiaries.splice(Math.floor(rnd() * beneficiaries.length), 1)[0]!;
        out.push({ stream: 'beneficiaries', event: bankEvent('BeneficiaryRemoved', { beneficiaryId: id, name: 'Payee', accountNumber: '8888888888', adminId, occurredAt: now() }), metadata: asAdmin });
      } else if (roll < 0.85) {
        const id = nextId();
        contacts.push(id);
        out.push({
          stream: `contact-${id}`,
          event: bankEvent('ContactMessageReceived', { contactId: id, name: 'Visitor', email: 'v@example.com', phone: '', subject: 'Hello', message: 'Hi there', receivedAt: now() }),
        });
      } else if (contacts.length > 0) {
        const id = contacts.splice(Math.floor(rnd() * contacts.length), 1)[0]!;
        out.push({ stream: `contact-${id}`, event: bankEvent('ContactMessageDeleted', { contactId: id, adminId, occurredAt: now() }), metadata: asAdmin });
      }
    },
    // standing orders (their records only: their payments are transfers like the others)
    () => {
      const roll = rnd();
      const open = orders.filter((order) => order.status !== 'cancelled');
      if (roll < 0.3 || open.length === 0) {
        const id = nextId();
        const payer = pick(users);
        const payee = pick(users);
        orders.push({ id, status: 'active', day: 1 });
        const firstDate = now().slice(0, 10);
        out.push({
          stream: `standingOrder-${id}`,
          event: bankEvent('StandingOrderCreated', {
            orderId: id,
            payerId: payer.id,
            from: pick(['savings', 'checking'] as const),
            accountNumber: payee.accountNumber,
            bankName: '',
            routingNumber: '',
            accountType: pick(['savings', 'checking'] as const),
            recipientName: 'Payee',
            amountCents: amount(),
            description: pick(['Rent', '']),
            schedule: rnd() < 0.5 ? { frequency: 'monthly', day: 31, firstDate, count: 12 } : { frequency: 'weekly', day: 5, firstDate },
            createdAt: now(),
          }),
          metadata: { actorId: payer.id, actorRole: 'customer' },
        });
        return;
      }
      const order = pick(open);
      const stream = `standingOrder-${order.id}`;
      const date = `2025-02-${String(Math.min(28, order.day++)).padStart(2, '0')}`;
      if (roll < 0.55) out.push({ stream, event: bankEvent('OccurrencePaid', { orderId: order.id, date, transferId: nextId(), occurredAt: now() }) });
      else if (roll < 0.65) {
        out.push({ stream, event: bankEvent('OccurrenceFailed', { orderId: order.id, date, reason: 'You do not have enough balance', occurredAt: now() }) });
        if (rnd() < 0.3) {
          order.status = 'suspended';
          out.push({ stream, event: bankEvent('StandingOrderSuspended', { orderId: order.id, reason: '3 payments in a row failed', occurredAt: now() }) });
        }
      } else if (roll < 0.7) out.push({ stream, event: bankEvent('OccurrenceMissed', { orderId: order.id, date, occurredAt: now() }) });
      else if (roll < 0.8) {
        order.status = order.status === 'active' ? 'paused' : 'active';
        const data = { orderId: order.id, occurredAt: now() };
        out.push({ stream, event: order.status === 'paused' ? bankEvent('StandingOrderPaused', data) : bankEvent('StandingOrderResumed', { ...data, resumedOn: data.occurredAt.slice(0, 10) }) });
      } else {
        order.status = 'cancelled';
        out.push({ stream, event: bankEvent('StandingOrderCancelled', { orderId: order.id, occurredAt: now() }) });
      }
    },
  ];
  const weights = [4, 25, 35, 5, 6, 15, 10, 4];

  for (let i = 0; i < 5; i += 1) register('customer');
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  while (out.length < options.events) {
    let roll = rnd() * total;
    let index = 0;
    while (roll >= weights[index]!) roll -= weights[index++]!;
    steps[index]!();
  }
  return out;
}
