import type { Request, Response } from 'express';
import type { AppDeps } from '../../appDeps';
import { NotFoundError, UnprocessableError } from '../../http/httpErrors';
import { ReplayError } from '../audit/balancesAt';
import { sendDownload } from '../../http/sendDownload';
import { readHolder } from '../statements/statementSource';
import { interestJson } from './interestJson';
import { interestFileName, writeInterestPdf } from './interestPdf';
import { parseInterestQuery } from './interestQuery';
import { readInterestSummary } from './interestSummary';
import { businessDates, readRates } from './ratesRead';
import { rateOn } from '@bank/domain';

/**
 * Answers the interest of `userId` as the query asks (GET /interest, GET /audit/users/:id/interest): JSON
 * `{year, annualRate, apy, accruedThisMonth, paidThisYear, payments}`, or the year's interest statement as a PDF.
 * 400 for a malformed year or format; 404 when the store holds no such customer.
 */
export async function sendInterest(deps: AppDeps, userId: string, req: Request, res: Response): Promise<void> {
  const query = parseInterestQuery(req);
  let holder;
  try {
    holder = await readHolder(deps.store, userId);
  } catch (error) {
    if (error instanceof ReplayError) throw new UnprocessableError(error.message);
    throw error;
  }
  if (!holder) throw new NotFoundError('User not found');
  const { businessDate } = await businessDates(deps);
  const year = query.year ?? Number(businessDate.slice(0, 4));
  const [summary, savingsRate] = await Promise.all([readInterestSummary(deps.pool, userId, year), readRates(deps, (state) => rateOn(state, 'savings', businessDate))]);
  if (query.format === 'json') {
    res.set('Cache-Control', 'no-store');
    res.json({ data: interestJson(summary, savingsRate) });
    return;
  }
  await sendDownload(
    res,
    { fileName: interestFileName(year), contentType: 'application/pdf' },
    (out) => writeInterestPdf({ holder, summary, savingsRate, businessDate }, out),
    deps.logger,
  );
}
