import type { components } from '../../lib/api/openApiTypes';
import type { AccountKind } from '../../lib/api/types';

/** A rate of GET /rates: percent a year (up to 4 decimals) and its APY (two decimals), from a business date. */
export type Rate = components['schemas']['Rate'];

/** GET /interest's data: the savings rate and APY, this month's accrual, the year's payments (dollars). */
export type Interest = components['schemas']['Interest'];

/** PUT /admin/rates' body. */
export interface RateChange {
  readonly account: AccountKind;
  readonly annualRate: string;
  readonly effectiveFrom: string;
}
