import { isPeriodProblem, statementPeriod, STATEMENT_MAX_DAYS, type AccountKind, type StatementPeriod } from '@bank/domain';
import { z } from 'zod';
import { invalidField } from '../../http/httpErrors';
import type { StatementFormat } from './statementFormat';

const date = (name: 'from' | 'to') => z.string({ error: `${name} is required: a date as YYYY-MM-DD` }).trim();

/** The query of GET /statements and GET /audit/users/:id/statements (a parameter given twice is refused). */
export const statementQuerySchema = z.object({
  account: z.enum(['checking', 'savings'], { error: 'account must be checking or savings' }),
  from: date('from'),
  to: date('to'),
  format: z.enum(['json', 'csv', 'pdf'], { error: 'format must be json, csv or pdf' }).default('json'),
});

/** The query's descriptions, for the OpenAPI document. */
export const statementQueryDoc = {
  account: 'checking | savings (required)',
  from: 'YYYY-MM-DD, first day of the period, inclusive (UTC; required)',
  to: `YYYY-MM-DD, last day of the period, inclusive (UTC; required; at most ${STATEMENT_MAX_DAYS} days from \`from\`)`,
  format: 'json (default) | csv | pdf (downloads, streamed)',
} as const;

export interface StatementRequest {
  readonly account: AccountKind;
  readonly period: StatementPeriod;
  readonly format: StatementFormat;
}

/** Throws a ZodError (400) or a 400 for the period (bad date, from after to, over STATEMENT_MAX_DAYS days). */
export function parseStatementQuery(query: unknown): StatementRequest {
  const { account, from, to, format } = statementQuerySchema.parse(query ?? {});
  const period = statementPeriod(from, to);
  if (isPeriodProblem(period)) throw invalidField(period.field, period.message);
  return { account, period, format };
}
