import { isCalendarDate } from '@bank/domain';
import { isUuid } from '@bank/platform';
import type { Request } from 'express';
import { invalidField } from '../../http/httpErrors';
import { queryInstant, queryText } from '../../http/queryParams';
import type { EntryFilter } from './ledgerEntries';

export const FUTURE_INSTANT_MESSAGE = 'at must not be in the future';

/** `?format`: one of `formats`, json when absent; 400 otherwise. */
export function queryFormat<F extends string>(req: Request, formats: readonly F[]): F | 'json' {
  const format = queryText(req, 'format') ?? 'json';
  const allowed: readonly string[] = ['json', ...formats];
  if (!allowed.includes(format)) throw invalidField('format', `format must be ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`);
  return format as F | 'json';
}

/** `?at`: an ISO-8601 instant not after `now`, undefined when absent; 400 when malformed or in the future. */
export function queryPastInstant(req: Request, now: Date): Date | undefined {
  const at = queryInstant(req, 'at');
  if (at && at.getTime() > now.getTime()) throw invalidField('at', FUTURE_INSTANT_MESSAGE);
  return at;
}

function queryDate(req: Request, name: 'from' | 'to'): string | undefined {
  const text = queryText(req, name);
  if (text !== undefined && !isCalendarDate(text)) throw invalidField(name, `${name} must be a business date as YYYY-MM-DD`);
  return text;
}

/** The filters of an account's entries: `from` and `to` business dates (inclusive), `customerId`. */
export function queryEntryFilter(req: Request, accountKey: string): EntryFilter {
  const from = queryDate(req, 'from');
  const to = queryDate(req, 'to');
  if (from && to && from > to) throw invalidField('to', 'to must not be before from');
  const customerId = queryText(req, 'customerId');
  if (customerId !== undefined && !isUuid(customerId)) throw invalidField('customerId', 'customerId must be a customer id (a UUID)');
  return { accountKey, ...(from ? { from } : {}), ...(to ? { to } : {}), ...(customerId ? { customerId: customerId.toLowerCase() } : {}) };
}
