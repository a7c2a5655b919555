import type { EventStore } from '@bank/eventstore';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { ReplayError } from '../audit/balancesAt';
import { NotFoundError, UnprocessableError } from '../../http/httpErrors';
import { sendDownload } from '../../http/sendDownload';
import { statementFileName } from './statementFormat';
import { writeStatementCsv } from './statementCsv';
import { statementJson } from './statementJson';
import { writeStatementPdf } from './statementPdf';
import { parseStatementQuery } from './statementQuery';
import { openStatement, type StatementItem } from './statementSource';

export interface StatementDeps {
  readonly store: EventStore;
  /** Where a download cut short is reported. */
  readonly logger?: Pick<Logger, 'warn'>;
  /** The routing number the PDF prints (BANK_ROUTING_NUMBER). */
  readonly routingNumber?: string;
}

/** The iterator's first item taken, then the rest: errors of the first page still answer with a status. */
async function* prepended(first: StatementItem, rest: AsyncIterator<StatementItem>): AsyncGenerator<StatementItem> {
  yield first;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

/**
 * Answers the statement of `userId` as the query asks: JSON, or a CSV / PDF download streamed as the account stream
 * is read. 400 for a bad query, 404 when the store holds no such customer, 422 when the record cannot be replayed.
 * Once a download has started, a failure can only cut it short (the connection is destroyed; the log tells why).
 */
export async function sendStatement(deps: StatementDeps, userId: string, req: Request, res: Response): Promise<void> {
  const { account, period, format } = parseStatementQuery(req.query);
  try {
    const source = await openStatement(deps.store, userId, account, period);
    if (!source) throw new NotFoundError('User not found');
    const iterator = source.items[Symbol.asyncIterator]();
    const first = await iterator.next();
    if (first.done) throw new Error('A statement has at least its opening balance');
    const items = prepended(first.value, iterator);
    res.set('Cache-Control', 'no-store');
    if (format === 'json') {
      res.json({ data: await statementJson(source, items) });
      return;
    }
    // The name is made of checked parts only (account, dates): quoted as is.
    const download = {
      fileName: statementFileName(account, period.from, period.to, format),
      contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/pdf',
      cutShort: { message: 'statement download cut short', fields: { userId } },
    };
    await sendDownload(
      res,
      download,
      (out, flush) => (format === 'csv' ? writeStatementCsv(source, items, out, flush) : writeStatementPdf(source, items, out, deps.routingNumber ? { routingNumber: deps.routingNumber } : {})),
      deps.logger,
    );
  } catch (error) {
    if (error instanceof ReplayError) throw new UnprocessableError(error.message);
    throw error;
  }
}
