import { bigCentsToDollars } from '@bank/domain';
import type { InterestDto } from './interestShape';
import type { InterestSummary } from './interestSummary';
import { apyPercentOf, percentOf } from './ratesRead';

/** GET /interest's data: the summary in dollars, with the savings rate in force and its APY. */
export function interestJson(summary: InterestSummary, savingsRate: number): InterestDto {
  return {
    year: summary.year,
    annualRate: percentOf(savingsRate),
    apy: apyPercentOf(savingsRate),
    accruedThisMonth: bigCentsToDollars(summary.accruedThisMonthCents),
    paidThisYear: bigCentsToDollars(summary.paidThisYearCents),
    payments: summary.payments.map((payment) => ({ date: payment.date, amount: bigCentsToDollars(payment.amountCents), account: payment.account })),
  };
}
