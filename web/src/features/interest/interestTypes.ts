import type { AccountKind } from '../../lib/api/types';

/** A rate of GET /rates: percent a year (up to 4 decimals) and its APY (two decimals), from a business date. */
export interface Rate {
  readonly account: AccountKind;
  readonly annualRate: number;
  readonly apy: number;
  readonly effectiveFrom: string;
}

/** GET /interest's data: the savings rate and APY, this month's accrual, the year's payments (dollars). */
export interface Interest {
  readonly year: number;
  readonly annualRate: number;
  readonly apy: number;
  readonly accruedThisMonth: number;
  readonly paidThisYear: number;
  readonly payments: readonly { readonly date: string; readonly amount: number; readonly account: AccountKind }[];
}

/** PUT /admin/rates' body. */
export interface RateChange {
  readonly account: AccountKind;
  readonly annualRate: string;
  readonly effectiveFrom: string;
}
