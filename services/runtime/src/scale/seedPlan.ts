/**
 * The plan of a generated bank (`npm run seed:scale`): who the customers are and how many staff postings each
 * account gets, decided from the seed alone, so that the same arguments always plan the same bank (and a restarted
 * load writes the same events, with the same ids). Pure: no I/O, no clock.
 */
import type { ProfileDetails } from '@bank/domain';
import { seededRandom } from '@bank/platform';

export { seededRandom };

const FIRST_NAMES = ['Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Radia', 'Tim', 'Shafi', 'John', 'Hedy', 'Dennis', 'Sophie', 'Niklaus', 'Karen', 'Leslie'];
const LAST_NAMES = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson', 'Perlman', 'Berners-Lee', 'Goldwasser', 'McCarthy', 'Lamarr', 'Ritchie', 'Wilson', 'Wirth', 'Sparck Jones', 'Lamport'];
const STREETS = ['Main St', 'Oak Ave', 'Maple Rd', 'Cedar Ln', 'Elm St', 'Pine Dr', 'Lake View', 'Hill Rd'];
const STATES = ['CA', 'NY', 'TX', 'FL', 'WA', 'IL', 'MA', 'CO', 'GA', 'OR'];
const MERCHANT_NAMES = ['Corner Grocery', 'City Power', 'Metro Transit', 'Daily Coffee', 'Book Nook', 'Fresh Market', 'Gas & Go', 'Pharma Plus'];

export interface SeedOptions {
  readonly customers: number;
  readonly transactions: number;
  readonly seed: number;
  /** The history's last business date (YYYY-MM-DD; seedCalendar.ts): by default 31 January 2026, after a 2025 of activity. */
  readonly historyEnd?: string | undefined;
}

/**
 * How the --transactions budget is spent, counted as the rows customers see in their transaction lists: a staff
 * posting is one, an internal transfer two (the payer's debit and the payee's credit), an external transfer one.
 */
export interface SeedBudget {
  readonly postings: number;
  readonly internalTransfers: number;
  readonly externalTransfers: number;
}

/** The share of the budget's rows that are transfers, and the share of those rows that leave the bank. */
const TRANSFER_SHARE = 0.2;
const EXTERNAL_SHARE = 0.1;

export function planBudget(options: Pick<SeedOptions, 'customers' | 'transactions'>): SeedBudget {
  const { customers, transactions } = options;
  // A transfer needs a payer with an opening deposit: at least twice as many postings as transfer rows.
  if (customers < 2 || transactions < 10) return { postings: transactions, internalTransfers: 0, externalTransfers: 0 };
  const transferRows = Math.floor(transactions * TRANSFER_SHARE);
  const externalTransfers = Math.floor(transferRows * EXTERNAL_SHARE);
  const internalTransfers = Math.floor((transferRows - externalTransfers) / 2);
  return { postings: transactions - 2 * internalTransfers - externalTransfers, internalTransfers, externalTransfers };
}

export interface PlannedCustomer extends ProfileDetails {
  readonly index: number;
  /** 10 digits, unique in the plan (no leading zero). */
  readonly accountNumber: string;
  /** Staff postings on the account (the opening deposit included). */
  readonly transactions: number;
  readonly merchant: boolean;
}

/** Merchants: one per 100,000 customers (at least one), each with up to 100,000 postings (10 % of all at most). */
export function merchantCount(customers: number): number {
  return Math.min(customers, Math.max(1, Math.floor(customers / 100_000)));
}

/**
 * How many staff postings each customer gets, summing to exactly the budget's postings (planBudget: the rest of
 * --transactions are transfers): the merchants first, the rest spread with a long tail (exponential weights: most
 * customers a few, some many).
 */
export function planTransactionCounts(options: SeedOptions): Uint32Array {
  const { customers } = options;
  const transactions = planBudget(options).postings;
  const counts = new Uint32Array(customers);
  if (customers === 0) return counts;
  const merchants = merchantCount(customers);
  const perMerchant = customers === merchants ? Math.floor(transactions / merchants) : Math.min(100_000, Math.floor((transactions * 0.1) / merchants));
  for (let i = 0; i < merchants; i += 1) counts[i] = perMerchant;
  const rest = transactions - perMerchant * merchants;
  const random = seededRandom(options.seed ^ 0x5eed);
  const weights = new Float64Array(customers - merchants);
  let total = 0;
  for (let i = 0; i < weights.length; i += 1) {
    weights[i] = -Math.log(1 - random());
    total += weights[i]!;
  }
  let given = 0;
  for (let i = 0; i < weights.length; i += 1) {
    const count = Math.floor((weights[i]! / total) * rest);
    counts[merchants + i] = count;
    given += count;
  }
  // What the flooring left: one more each, in order (to the merchants when everyone is one).
  const tail = customers - merchants;
  for (let i = 0; given < rest; i += 1, given += 1) {
    const target = tail > 0 ? merchants + (i % tail) : i % merchants;
    counts[target] = counts[target]! + 1;
  }
  return counts;
}

/** Customer `index` of the plan (names, contact, a unique account number), with its posting count. */
export function plannedCustomer(options: SeedOptions, counts: Uint32Array, index: number): PlannedCustomer {
  const random = seededRandom((options.seed * 1_000_003 + index) | 0);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const merchant = index < merchantCount(options.customers);
  const firstName = merchant ? pick(MERCHANT_NAMES) : pick(FIRST_NAMES);
  const lastName = merchant ? `Merchant ${index + 1}` : pick(LAST_NAMES);
  const handle = `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]+/g, '');
  return {
    index,
    firstName,
    lastName,
    email: `${handle}.${index}@seed${options.seed}.example`,
    phone: `555-${String(index % 10_000_000).padStart(7, '0')}`,
    address: `${1 + Math.floor(random() * 9_999)} ${pick(STREETS)}`,
    state: pick(STATES),
    // Ten digits, unique per seed and index (20 million customers a seed, 50 seeds), in a block of their own.
    accountNumber: String(4_000_000_000 + (Math.abs(options.seed) % 50) * 20_000_000 + index),
    transactions: counts[index] ?? 0,
    merchant,
  };
}
