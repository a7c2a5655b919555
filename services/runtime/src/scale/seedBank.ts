import { deterministicId, toNewEvents, type DomainEventLike } from '@bank/commands';
import {
  accountDecider,
  accountNumberReservationDecider,
  customerDecider,
  emailReservationDecider,
  streams,
  type AccountCommand,
  type Decider,
} from '@bank/domain';
import type { EventStore, NewEvent } from '@bank/eventstore';
import type { Keyring } from '@bank/platform';
import { planTransactionCounts, plannedCustomer, seededRandom, type PlannedCustomer, type SeedOptions } from './seedPlan';

export interface SeedBankOptions extends SeedOptions {
  readonly store: EventStore;
  /** The bank's hash-chain keys (as the API appends with); without, legacy plain hashes. */
  readonly chainKeys?: Keyring | undefined;
  /** One bcrypt hash for every generated customer (hashed once: hashing a million would take hours). */
  readonly passwordHash: string;
  /** Customers written at once (their appends are batched by the store). */
  readonly concurrency?: number;
  /** Events per append of one stream. */
  readonly chunk?: number;
  readonly onProgress?: (done: { readonly customers: number; readonly events: number }) => void;
}

export interface SeedBankResult {
  readonly customers: number;
  readonly transactions: number;
  /** Events the load handed to the store (a restarted load hands the same ones again: the store keeps them once). */
  readonly events: number;
  readonly adminId: string;
}

/** The day every generated history starts: postings are spread over the year after it. */
const HISTORY_START = Date.UTC(2025, 0, 1);
const DAY_MS = 86_400_000;

/** The events `commands` decide one after the other on a fresh stream of `decider` (folded as they come). */
function decideAll<C, E extends DomainEventLike, S>(decider: Decider<C, E, S>, commands: Iterable<C>): E[] {
  let state = decider.initialState;
  const events: E[] = [];
  for (const command of commands) {
    for (const event of decider.decide(command, state)) {
      state = decider.evolve(state, event);
      events.push(event);
    }
  }
  return events;
}

/**
 * Appends a whole stream in chunks, each with the revision the previous one left. Event ids are derived from the
 * seed and the stream (toNewEvents' commandId), so a restarted load appends ids already stored: the store answers
 * those appends without storing anything (idempotent by id) and carries on where the last run stopped.
 */
async function appendStream(store: EventStore, stream: string, events: readonly NewEvent[], chunk: number): Promise<void> {
  let expected: 'no_stream' | bigint = 'no_stream';
  for (let start = 0; start < events.length; start += chunk) {
    const result = await store.append(stream, events.slice(start, start + chunk), expected);
    expected = result.nextExpectedRevision;
  }
}

/** The commands of one account: an opening deposit, then credits and debits that never overdraw it. */
function* accountCommands(seed: number, customer: PlannedCustomer, userId: string, adminId: string): Generator<AccountCommand> {
  const random = seededRandom((seed * 7_919 + customer.index) | 0);
  const opened = HISTORY_START + Math.floor(random() * 30) * DAY_MS;
  yield { type: 'OpenAccount', userId, accountNumber: customer.accountNumber, now: new Date(opened).toISOString() };
  const balances = { checking: 0, savings: 0 };
  for (let n = 0; n < customer.transactions; n += 1) {
    const at = new Date(opened + Math.floor(((n + random()) / Math.max(1, customer.transactions)) * 335 * DAY_MS));
    const opening = n === 0;
    const account = opening || random() < 0.7 ? 'checking' : 'savings';
    const amountCents = opening ? 50_000 + Math.floor(random() * 500_000) : 100 + Math.floor(random() * (customer.merchant ? 20_000 : 15_000));
    const direction = opening || amountCents > balances[account] || random() < 0.45 ? 'credit' : 'debit';
    balances[account] += direction === 'credit' ? amountCents : -amountCents;
    yield {
      type: 'PostStaffTransaction',
      transactionId: deterministicId(`seed:${seed}:transaction:${customer.index}:${n}`),
      adminId,
      account,
      direction,
      amountCents,
      date: at.toISOString(),
      description: opening ? 'Opening deposit' : direction === 'credit' ? (customer.merchant ? 'Card sales' : 'Salary') : customer.merchant ? 'Supplier payment' : 'Card payment',
      now: at.toISOString(),
    };
  }
}

/**
 * Writes a generated bank (seedPlan) as the bank's own events, decided by the domain's deciders: per customer the
 * e-mail and account-number reservations, the registration, the account and its staff postings (by one generated
 * admin, registered first). Deterministic for a seed, and restartable without duplicates (see appendStream).
 */
export async function seedBank(options: SeedBankOptions): Promise<SeedBankResult> {
  const { store, seed } = options;
  const chunk = options.chunk ?? 1_000;
  const chainKey = options.chainKeys?.current;
  const counts = planTransactionCounts(options);
  const adminId = deterministicId(`seed:${seed}:admin`);
  let events = 0;
  let done = 0;

  const write = async (stream: string, domainEvents: readonly DomainEventLike[], actor: { readonly id: string; readonly role: 'customer' | 'admin' }, now: Date) => {
    const newEvents = toNewEvents(stream, domainEvents, { revision: undefined, lastHash: null }, { commandId: `seed:${seed}:${stream}`, metadata: { actorId: actor.id, actorRole: actor.role } }, now, chainKey);
    await appendStream(store, stream, newEvents, chunk);
    events += newEvents.length;
  };

  const adminEmail = `seed-admin@seed${seed}.example`;
  const adminAt = new Date(HISTORY_START - DAY_MS);
  const system = { id: adminId, role: 'admin' } as const;
  await write(streams.email(adminEmail), decideAll(emailReservationDecider, [{ type: 'ReserveEmail', email: adminEmail, userId: adminId }]), system, adminAt);
  await write(
    streams.customer(adminId),
    decideAll(customerDecider, [
      { type: 'RegisterCustomer', userId: adminId, firstName: 'Seed', lastName: 'Admin', email: adminEmail, phone: '555-0000000', address: '1 Bank Plaza', state: 'NY', passwordHash: options.passwordHash, accountNumber: '3999999999', role: 'admin', now: adminAt.toISOString() },
    ]),
    system,
    adminAt,
  );

  const writeCustomer = async (index: number) => {
    const customer = plannedCustomer(options, counts, index);
    const userId = deterministicId(`seed:${seed}:customer:${index}`);
    const self = { id: userId, role: 'customer' } as const;
    const joined = new Date(HISTORY_START + (index % 30) * DAY_MS);
    await write(streams.email(customer.email), decideAll(emailReservationDecider, [{ type: 'ReserveEmail', email: customer.email, userId }]), self, joined);
    await write(
      streams.accountNumber(customer.accountNumber),
      decideAll(accountNumberReservationDecider, [{ type: 'ReserveAccountNumber', accountNumber: customer.accountNumber, userId }]),
      self,
      joined,
    );
    await write(
      streams.customer(userId),
      decideAll(customerDecider, [
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
          now: joined.toISOString(),
        },
      ]),
      self,
      joined,
    );
    await write(streams.account(userId), decideAll(accountDecider, accountCommands(seed, customer, userId, adminId)), system, joined);
    done += 1;
    options.onProgress?.({ customers: done, events });
  };

  // A few customers at a time: the store batches their concurrent appends into one transaction each round.
  let next = 0;
  const worker = async () => {
    while (next < options.customers) await writeCustomer(next++);
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 16) }, worker));
  return { customers: options.customers, transactions: counts.reduce((sum, count) => sum + count, 0), events, adminId };
}
