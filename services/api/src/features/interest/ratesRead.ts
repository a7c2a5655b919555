import { readBusinessDays } from '@bank/books';
import { apyOf, formatAnnualRate, interestRatesDecider, rateOn, ratesListed, streams, type AccountKind, type InterestRatesState } from '@bank/domain';
import type { AppDeps } from '../../appDeps';
import { businessDateOf } from '../businessDate/appBooks';

/** A rate as GET /rates answers it: percent (up to 4 decimals) and APY (two decimals) as JSON numbers. */
export interface RateDto {
  readonly account: AccountKind;
  readonly annualRate: number;
  readonly apy: number;
  readonly effectiveFrom: string;
}

/** The integer annualRate (ten-thousandths of a percent) as the percent JSON number: 50_000 → 5, 41_250 → 4.125. */
export function percentOf(annualRate: number): number {
  return Number(formatAnnualRate(annualRate));
}

/** The APY of an annualRate as a JSON number with two decimals: 50_000 → 5.12. */
export function apyPercentOf(annualRate: number): number {
  return Number(apyOf(annualRate));
}

export function rateDto(rate: { readonly account: AccountKind; readonly annualRate: number; readonly effectiveFrom: string }): RateDto {
  return { account: rate.account, annualRate: percentOf(rate.annualRate), apy: apyPercentOf(rate.annualRate), effectiveFrom: rate.effectiveFrom };
}

type RatesDeps = AppDeps;

/** The business date now and the bank's first business date (the defaults' effectiveFrom; the business date before the calendar starts). */
export async function businessDates(deps: RatesDeps): Promise<{ readonly businessDate: string; readonly firstDate: string }> {
  const [businessDate, days] = await Promise.all([businessDateOf(deps), readBusinessDays(deps.commands)]);
  const firstDate = days.firstDate !== null && days.firstDate <= businessDate ? days.firstDate : businessDate;
  return { businessDate, firstDate };
}

/** A view of the interestRates stream's state, brought up to date with the store (the command handler's read). */
export function readRates<V>(deps: Pick<AppDeps, 'commands'>, view: (state: InterestRatesState) => V): Promise<V> {
  return deps.commands.read(interestRatesDecider, streams.interestRates(), (state) => view(state), { fresh: true });
}

/** GET /rates' list: for each account the rate in force on the business date, then the changes scheduled after it. */
export async function listRates(deps: RatesDeps): Promise<RateDto[]> {
  const { businessDate, firstDate } = await businessDates(deps);
  return readRates(deps, (state) => ratesListed(state, businessDate, firstDate).map(rateDto));
}

/** The annualRate of `account` in force on the business date. */
export async function rateInForce(deps: RatesDeps, account: AccountKind): Promise<number> {
  const { businessDate } = await businessDates(deps);
  return readRates(deps, (state) => rateOn(state, account, businessDate));
}
