import { isCalendarDate } from '@bank/domain';
import type { Request } from 'express';
import { invalidField } from './httpErrors';

/**
 * The query-string parsing every router shares: one value per name (a repeated name is 400), trimmed, empty
 * meaning absent.
 */
export function queryText(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidField(name, `${name} must be given once`);
  return value.trim() === '' ? undefined : value.trim();
}

/** A whole number from `min` to `max`, `fallback` when absent; 400 otherwise. */
export function queryInteger<T extends number | undefined>(req: Request, name: string, fallback: T, min: number, max: number): number | T {
  const text = queryText(req, name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d{1,16}$/.test(text) || value < min || value > max) throw invalidField(name, `${name} must be a whole number from ${min} to ${max}`);
  return value;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO-8601 date or date-time (a date alone is midnight UTC), or undefined. */
export function parseInstant(text: unknown): Date | undefined {
  if (typeof text !== 'string' || !ISO_DATE.test(text.trim())) return undefined;
  // The engine's parser takes 2025-02-30 for March 2nd: the day must exist.
  if (!isCalendarDate(text.trim().slice(0, 10))) return undefined;
  const date = new Date(text.trim());
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** An ISO-8601 instant from the query string, undefined when absent, 400 when malformed. */
export function queryInstant(req: Request, name: string): Date | undefined {
  const text = queryText(req, name);
  if (text === undefined) return undefined;
  const instant = parseInstant(text);
  if (!instant) throw invalidField(name, `${name} must be an ISO-8601 date or date-time, e.g. 2025-03-01T12:00:00Z`);
  return instant;
}
