/**
 * The transfers of a generated bank (`npm run seed:scale`): who pays whom, when, and how much, decided from the seed
 * alone (pure: no I/O, no clock). Internal transfers go from one generated customer to another (a third of them to a
 * merchant), external ones to generated accounts at other banks. Transfer `t` happens at time `atMs[t]`, and the
 * times grow with `t`, so each customer's outgoing and incoming lists (in `t` order) are already in time order.
 * Amounts come from the payers' own activity (seedActivity.ts: `planTransferAmounts`), so no payer overdraws.
 */
import { DAY_MS, seedCalendar } from './seedCalendar';
import { merchantCount, planBudget, seededRandom, type SeedOptions } from './seedPlan';

export { DAY_MS };

/** The default history's first day (seedCalendar.ts); accounts open in its first 30 days, postings run for 335 more. */
export const HISTORY_START = seedCalendar().startMs;
/** Transfers run from day 30 (after every account has opened) for 300 days. */
const TRANSFERS_FROM_DAY = 30;
const TRANSFERS_SPAN = 300 * DAY_MS;
/** An external transfer settles this long after it was sent (the settlement network's answer). */
export const SEED_SETTLES_AFTER_MS = 60 * 60 * 1000;

/** Transfer ids of one customer, in `t` (and time) order: customer c's are items[offsets[c]] … items[offsets[c + 1] - 1]. */
export interface TransferIndex {
  readonly offsets: Uint32Array;
  readonly items: Uint32Array;
}

export interface TransferPlan {
  readonly count: number;
  /** The history's day 0 (seedCalendar.ts), at midnight UTC. */
  readonly startMs: number;
  /** Payer's customer index. */
  readonly payer: Uint32Array;
  /** Payee's customer index, or -1 for an external transfer. */
  readonly payee: Int32Array;
  /** When it is requested (milliseconds since the epoch, whole minutes). */
  readonly atMs: Float64Array;
  /** 1 when the payee's savings account is credited (else checking). */
  readonly toSavings: Uint8Array;
  /** Filled by planTransferAmounts (seedActivity.ts). */
  readonly amountCents: Uint32Array;
  readonly outgoing: TransferIndex;
  readonly incoming: TransferIndex;
}

function indexBy(customers: number, owner: (t: number) => number, count: number): TransferIndex {
  const offsets = new Uint32Array(customers + 1);
  for (let t = 0; t < count; t += 1) {
    const c = owner(t);
    if (c >= 0) offsets[c + 1] = offsets[c + 1]! + 1;
  }
  for (let c = 0; c < customers; c += 1) offsets[c + 1] = offsets[c + 1]! + offsets[c]!;
  const items = new Uint32Array(offsets[customers]!);
  const fill = offsets.slice(0, customers);
  for (let t = 0; t < count; t += 1) {
    const c = owner(t);
    if (c >= 0) {
      items[fill[c]!] = t;
      fill[c] = fill[c]! + 1;
    }
  }
  return { offsets, items };
}

/** The transfers of `index`'s list (outgoing or incoming), in time order. */
export function transfersOf(list: TransferIndex, customer: number): Uint32Array {
  return list.items.subarray(list.offsets[customer]!, list.offsets[customer + 1]!);
}

/**
 * Plans the budget's transfers (planBudget). Payers are drawn in proportion to their staff postings (busy accounts
 * pay more often; every payer has an opening deposit), payees uniformly or among the merchants; externals are
 * spread evenly among the internals.
 */
export function planTransfers(options: SeedOptions, counts: Uint32Array): TransferPlan {
  const { customers } = options;
  const startMs = seedCalendar(options.historyEnd).startMs;
  const budget = planBudget(options);
  const count = budget.internalTransfers + budget.externalTransfers;
  const payer = new Uint32Array(count);
  const payee = new Int32Array(count);
  const atMs = new Float64Array(count);
  const toSavings = new Uint8Array(count);
  const cumulative = new Float64Array(customers);
  let total = 0;
  for (let c = 0; c < customers; c += 1) cumulative[c] = total += counts[c]!;
  const merchants = merchantCount(customers);
  const random = seededRandom(options.seed ^ 0x7a11f3);
  for (let t = 0; t < count; t += 1) {
    // Binary search for the first customer whose cumulative postings exceed the draw (a customer with postings).
    const draw = random() * total;
    let low = 0;
    let high = customers - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! > draw) high = middle;
      else low = middle + 1;
    }
    payer[t] = low;
    const external = Math.floor(((t + 1) * budget.externalTransfers) / count) > Math.floor((t * budget.externalTransfers) / count);
    if (external) payee[t] = -1;
    else {
      let to = random() < 0.3 ? Math.floor(random() * merchants) : Math.floor(random() * customers);
      if (to === low) to = (to + 1) % customers;
      payee[t] = to;
    }
    const minute = Math.floor(((t + random()) / count) * (TRANSFERS_SPAN / 60_000));
    atMs[t] = startMs + TRANSFERS_FROM_DAY * DAY_MS + minute * 60_000;
    toSavings[t] = random() < 0.2 ? 1 : 0;
  }
  return {
    count,
    startMs,
    payer,
    payee,
    atMs,
    toSavings,
    amountCents: new Uint32Array(count),
    outgoing: indexBy(customers, (t) => payer[t]!, count),
    incoming: indexBy(customers, (t) => payee[t]!, count),
  };
}
