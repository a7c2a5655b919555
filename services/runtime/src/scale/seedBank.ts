import { deterministicId, type CommandContext } from '@bank/commands';
import {
  accountDecider,
  accountNumberReservationDecider,
  contactMessageDecider,
  customerDecider,
  emailReservationDecider,
  streams,
  transferStepActions,
  type TransferRequest,
} from '@bank/domain';
import type { EventStore, Position } from '@bank/eventstore';
import type { Keyring } from '@bank/platform';
import { transferStepContext } from '@bank/transfers';
import { ownActivity, planTransferAmounts } from './seedActivity';
import { plannedContact } from './seedContacts';
import { seedDocument } from './seedDocument';
import { planBudget, planTransactionCounts, plannedCustomer, type PlannedCustomer, type SeedOptions } from './seedPlan';
import { paymentSlot, seedCalendar } from './seedCalendar';
import { seedDays } from './seedDays';
import { CustomerInterest, emptyInterestTotals, type InterestTotals } from './seedInterest';
import { encodeSegment, SlotSpill, type SlotLines } from './seedSpill';
import { SeedStream, storeSink, type SeedSink } from './seedStream';
import { CREDIT, payerOrPayeeCommand, SETTLE, seedTransferRecord } from './seedTransferRecord';
import { debitDescription, intentOf, seedTransferRequest, seedUserId } from './seedTransferRequest';
import { DAY_MS, planTransfers, SEED_SETTLES_AFTER_MS, transfersOf } from './seedTransfers';
import { plannedVerification } from './seedVerifications';

export interface SeedBankOptions extends SeedOptions {
  readonly store: EventStore;
  /** The bank's hash-chain keys (as the API appends with); without, legacy plain hashes. */
  readonly chainKeys?: Keyring | undefined;
  /** One bcrypt hash for every generated customer (hashed once: hashing a million would take hours). */
  readonly passwordHash: string;
  /** Events per append of one stream. */
  readonly chunk?: number;
  readonly onProgress?: (done: { readonly customers: number; readonly events: number }) => void;
  /** The second pass: days of the history written, and the events so far. */
  readonly onDays?: (done: { readonly days: number; readonly events: number }) => void;
  /** Where the streams go (default: the store's appends, `chunk` events at a time); bulkEventLoad.ts for an empty store. */
  readonly sink?: SeedSink;
}

export interface GenerateOptions extends SeedOptions {
  readonly chainKeys?: Keyring | undefined;
  readonly passwordHash: string;
  /** Only these customers, in this order (default: all): a part of the bank, for a worker thread (seedWorkers.ts). */
  readonly indexes?: Iterable<number>;
  /** Write the generated admin's streams first (default true; a part of the bank other than the first leaves it out). */
  readonly admin?: boolean;
  /** Each customer's lines by slot (and the admin's first), in order. */
  readonly output: (lines: SlotLines) => void;
  /** After each customer: how many are generated, and the events so far. */
  readonly onCustomer?: (done: { readonly customers: number; readonly events: number }) => void;
}

/** The first pass's result: the plan's totals, this part's events, and the interest totals of its customers. */
export interface GeneratedPart extends Omit<SeedBankResult, 'position' | 'events' | 'interestPayments' | 'interestPaidCents' | 'businessDays'> {
  readonly events: number;
  readonly interest: InterestTotals;
}

export interface SeedBankResult {
  readonly customers: number;
  /** Rows of the customers' transaction lists: staff postings, two per internal transfer, one per external. */
  readonly transactions: number;
  readonly postings: number;
  readonly internalTransfers: number;
  readonly externalTransfers: number;
  /** Customers who submitted a verification: each may read the generated document (saveSeedDocument). */
  readonly verifiers: readonly string[];
  /** Contact messages sent through the public form (some deleted by the admin since). */
  readonly contacts: number;
  /** Events the load handed to the store (a restarted load hands the same ones again: the store keeps them once). */
  readonly events: number;
  /** Where the last of its events stands in the global log (wait for it to be readable before a rebuild). */
  readonly position: Position | undefined;
  readonly adminId: string;
  /** Interest paid over the history: payments (AccountCredited with `interest`) and their cents. */
  readonly interestPayments: number;
  readonly interestPaidCents: bigint;
  /** Business days closed (the whole history's calendar). */
  readonly businessDays: number;
}

/**
 * Writes a generated bank (seedPlan, seedTransfers, seedVerifications) as the bank's own events, decided by the
 * domain's deciders: one generated admin first, then per customer the e-mail and account-number reservations, the
 * registration (and the verification they submitted, with the admin's decision), a contact message for some, the
 * account — its opening deposit and staff postings, the transfers it pays (the request's pending debit, then the
 * process's completion) and the transfers it receives (the process's credit), in time order — and the record of each
 * transfer it paid, as the transfer process leaves it (seedTransferRecord.ts). Deterministic for a seed, and
 * restartable without duplicates (see appendStream).
 */
export interface CustomerGenerator {
  /** The generated admin's streams. */
  admin(): void;
  /** Customer `index`'s streams, handed to `output`. */
  customer(index: number): void;
  /** The plan's totals and what this generator made. */
  result(): GeneratedPart;
}

/** The first pass (see seedBank): the plan, and the streams of the admin and of each customer asked for. */
export function createCustomerGenerator(options: Omit<GenerateOptions, 'indexes' | 'admin'>): CustomerGenerator {
  const { seed } = options;
  const chainKey = options.chainKeys?.current;
  const counts = planTransactionCounts(options);
  const budget = planBudget(options);
  const customerOf = (index: number): PlannedCustomer => plannedCustomer(options, counts, index);
  const plan = planTransfers(options, counts);
  planTransferAmounts(seed, plan, customerOf);
  const requestOf = (t: number): TransferRequest => seedTransferRequest(seed, plan, t, customerOf);
  const document = seedDocument();
  const adminId = deterministicId(`seed:${seed}:admin`);
  const verifiers: string[] = [];
  let contacts = 0;
  let events = 0;
  let done = 0;
  const calendar = seedCalendar(options.historyEnd);
  const interest = emptyInterestTotals(calendar.days);
  /** The lines of the customer (or admin) being generated, by slot. */
  let lines: SlotLines = new Map();
  const flush = <C, E extends { type: string; data: object }, S>(seedStream: SeedStream<C, E, S>) => {
    for (const segment of seedStream.segments()) encodeSegment(lines, seedStream.stream, segment);
    events += seedStream.events.length;
  };
  const handOver = () => {
    options.output(lines);
    lines = new Map();
  };
  /** A command of `actorId` (customer or admin) on `stream`: its id from the seed, the stream and where it lands. */
  const by = (actorId: string, actorRole: 'customer' | 'admin', seedStream: { readonly stream: string; readonly events: readonly unknown[] }): CommandContext => ({
    commandId: `seed:${seed}:${seedStream.stream}:${seedStream.events.length}`,
    metadata: { actorId, actorRole },
  });

  const writeAdmin = () => {
    const adminEmail = `seed-admin@seed${seed}.example`;
    const adminAt = new Date(calendar.startMs - DAY_MS).toISOString();
    const adminEmailStream = new SeedStream(streams.email(adminEmail), emailReservationDecider, chainKey, calendar);
    adminEmailStream.command({ type: 'ReserveEmail', email: adminEmail, userId: adminId }, by(adminId, 'admin', adminEmailStream), adminAt);
    flush(adminEmailStream);
    const adminStream = new SeedStream(streams.customer(adminId), customerDecider, chainKey, calendar);
    adminStream.command(
      { type: 'RegisterCustomer', userId: adminId, firstName: 'Seed', lastName: 'Admin', email: adminEmail, phone: '555-0000000', address: '1 Bank Plaza', state: 'NY', passwordHash: options.passwordHash, accountNumber: '3999999999', role: 'admin', now: adminAt },
      by(adminId, 'admin', adminStream),
      adminAt,
    );
    flush(adminStream);
    handOver();
  };

  const writeCustomer = (index: number) => {
    const customer = customerOf(index);
    const userId = seedUserId(seed, index);
    const joinedMs = calendar.startMs + (index % 30) * DAY_MS;
    const joined = new Date(joinedMs).toISOString();

    const email = new SeedStream(streams.email(customer.email), emailReservationDecider, chainKey, calendar);
    email.command({ type: 'ReserveEmail', email: customer.email, userId }, by(userId, 'customer', email), joined);
    flush(email);
    const number = new SeedStream(streams.accountNumber(customer.accountNumber), accountNumberReservationDecider, chainKey, calendar);
    number.command({ type: 'ReserveAccountNumber', accountNumber: customer.accountNumber, userId }, by(userId, 'customer', number), joined);
    flush(number);

    const profile = new SeedStream(streams.customer(userId), customerDecider, chainKey, calendar);
    profile.command(
      {
        type: 'RegisterCustomer',
        userId,
        firstName: customer.firstName,
        lastName: customer.lastName,
        email: customer.email,
        phone: customer.phone,
        address: customer.address,
        state: customer.state,
        passwordHash: options.passwordHash,
        accountNumber: customer.accountNumber,
        role: 'customer',
        now: joined,
      },
      by(userId, 'customer', profile),
      joined,
    );
    const verification = plannedVerification(seed, index, joinedMs);
    if (verification) {
      verifiers.push(userId);
      const { documentType, dateOfBirth, submittedAt, decision } = verification;
      profile.command(
        { type: 'SubmitVerification', documentType, passport: document, documentFront: document, documentBack: document, dateOfBirth, now: submittedAt },
        by(userId, 'customer', profile),
        submittedAt,
      );
      if (decision) profile.command({ type: 'SetVerificationStatus', adminId, status: decision.status, now: decision.at }, by(adminId, 'admin', profile), decision.at);
    }
    flush(profile);

    const contact = plannedContact(seed, index, joinedMs);
    if (contact) {
      contacts += 1;
      const contactId = deterministicId(`seed:${seed}:contact:${index}`);
      const message = new SeedStream(streams.contact(contactId), contactMessageDecider, chainKey, calendar);
      const { subject, receivedAt, deletedAt } = contact;
      message.command(
        { type: 'ReceiveContactMessage', contactId, name: `${customer.firstName} ${customer.lastName}`, email: customer.email, phone: customer.phone, subject, message: contact.message, now: receivedAt },
        { commandId: `seed:${seed}:${message.stream}:0`, metadata: { actorRole: 'anonymous' } },
        receivedAt,
      );
      if (deletedAt) message.command({ type: 'DeleteContactMessage', adminId, now: deletedAt }, by(adminId, 'admin', message), deletedAt);
      flush(message);
    }

    const account = new SeedStream(streams.account(userId), accountDecider, chainKey, calendar);
    // The account's interest as the bank accrues it, its month-end payments made in the account's stream (after the
    // accrual of the month's last day, before any later event of the account).
    const accrual = new CustomerInterest(userId, account.stream, interest, calendar);
    const pay = (day: number, payment: { readonly command: Parameters<typeof accountDecider.decide>[0]; readonly context: CommandContext }) => {
      const from = account.events.length;
      account.command(payment.command, payment.context, (payment.command as { now: string }).now, paymentSlot(day));
      accrual.apply(account.events.slice(from));
    };
    const accountCommand = (command: Parameters<typeof accountDecider.decide>[0], context: CommandContext, at: string) => {
      accrual.accrueUntil(account.slotFor(at) >> 1, pay);
      const from = account.events.length;
      account.command(command, context, at);
      accrual.apply(account.events.slice(from));
    };
    const incoming = transfersOf(plan.incoming, index);
    let received = 0;
    const receiveUntil = (at: number) => {
      while (received < incoming.length && plan.atMs[incoming[received]!]! <= at) {
        const request = requestOf(incoming[received]!);
        received += 1;
        const credit = payerOrPayeeCommand(transferStepActions('credit', request, request.requestedAt), 'payee');
        accountCommand(credit, transferStepContext(request.transferId, 'credit', CREDIT.payee), request.requestedAt);
      }
    };
    const paid: TransferRequest[] = [];
    for (const step of ownActivity(seed, customer, plan)) {
      const at = new Date(step.at).toISOString();
      if (step.kind === 'open') {
        accountCommand({ type: 'OpenAccount', userId, accountNumber: customer.accountNumber, now: at }, by(userId, 'customer', account), at);
        continue;
      }
      receiveUntil(step.at);
      if (step.kind === 'posting') {
        const opening = step.n === 0;
        const description = opening ? 'Opening deposit' : step.direction === 'credit' ? (customer.merchant ? 'Card sales' : 'Salary') : customer.merchant ? 'Supplier payment' : 'Card payment';
        accountCommand(
          {
            type: 'PostStaffTransaction',
            transactionId: deterministicId(`seed:${seed}:transaction:${index}:${step.n}`),
            adminId,
            account: step.account,
            direction: step.direction,
            amountCents: step.amountCents,
            date: at,
            description,
            now: at,
          },
          by(adminId, 'admin', account),
          at,
        );
        continue;
      }
      const request = requestOf(step.transfer);
      paid.push(request);
      accountCommand(
        {
          type: 'DebitForTransfer',
          transactionId: request.debitTransactionId,
          transferId: request.transferId,
          account: request.from,
          amountCents: request.amountCents,
          description: debitDescription(request),
          intent: intentOf(request),
          now: request.requestedAt,
        },
        by(userId, 'customer', account),
        request.requestedAt,
      );
      if (request.internal) {
        const completed = payerOrPayeeCommand(transferStepActions('credit', request, request.requestedAt), 'payer');
        accountCommand(completed, transferStepContext(request.transferId, 'credit', CREDIT.payer), request.requestedAt);
      } else {
        const settledAt = new Date(step.at + SEED_SETTLES_AFTER_MS).toISOString();
        const completed = payerOrPayeeCommand(transferStepActions('settle', request, settledAt), 'payer');
        accountCommand(completed, transferStepContext(request.transferId, 'settle', SETTLE.payer), settledAt);
      }
    }
    receiveUntil(Number.POSITIVE_INFINITY);
    // Every day of the history accrues, every month is paid.
    accrual.accrueUntil(calendar.days, pay);
    // The account, then the records of the transfers it paid (no read model of a transfer's record depends on the accounts').
    flush(account);
    for (const request of paid) flush(seedTransferRecord(request, chainKey, calendar));
    handOver();
    done += 1;
    options.onCustomer?.({ customers: done, events });
  };

  return {
    admin: writeAdmin,
    customer: writeCustomer,
    result: () => ({
      customers: options.customers,
      transactions: counts.reduce((sum, count) => sum + count, 0) + 2 * budget.internalTransfers + budget.externalTransfers,
      postings: budget.postings,
      internalTransfers: budget.internalTransfers,
      externalTransfers: budget.externalTransfers,
      verifiers,
      contacts,
      events,
      adminId,
      interest,
    }),
  };
}

/**
 * Writes a generated bank in two passes. First every customer is generated (createCustomerGenerator), its streams'
 * events gathered by slot of the history (seedCalendar.ts) in temporary files (seedSpill.ts: memory stays bounded
 * at a million customers); then the history is written day by day (seedDays.ts): each day's events of every
 * customer, then that day's close of business (accrual, booking, the month's payments and close on its last day,
 * the day close). Deterministic for a seed, and restartable without duplicates on the appends path (see appendStream).
 */
export async function seedBank(options: SeedBankOptions): Promise<SeedBankResult> {
  const calendar = seedCalendar(options.historyEnd);
  const spill = new SlotSpill(calendar.slots);
  try {
    const generator = createCustomerGenerator({ ...options, output: (lines) => spill.add(lines), onCustomer: options.onProgress });
    generator.admin();
    for (let index = 0; index < options.customers; index += 1) generator.customer(index);
    return await seedDays(generator.result(), spill, { store: options.store, sink: options.sink ?? storeSink(options.store, options.chunk ?? 1_000), chainKey: options.chainKeys?.current, calendar, onDay: options.onDays });
  } finally {
    spill.remove();
  }
}
