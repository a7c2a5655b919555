import type { Request } from 'express';
import { z } from 'zod';
import { invalidField } from './httpErrors';
import { queryInteger, queryText } from './queryParams';

/**
 * The one shape of a paged list (docs/api.md, "Paged lists"): `data` is the page, `next` the opaque cursor of the
 * following page (pass it back as `?cursor=`), null on the last page. Keyset pagination: the cursor holds the sort
 * key and the id of the page's last row, and the next page is the rows after that key (never OFFSET), so rows
 * added meanwhile neither repeat nor shift a row out of the following pages.
 */
export interface Page<T> {
  readonly data: readonly T[];
  readonly next: string | null;
}

export const CURSOR_PARAM = 'cursor';
export const BAD_CURSOR_MESSAGE = 'cursor is not a cursor of this list: pass back the `next` of a previous page';

/** A cursor is base64url JSON of the last row's key: opaque to clients, not a secret (it holds only sort keys). */
export function encodeCursor(key: unknown): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** The key a cursor holds, checked against the list's own key schema; 400 when it is not one. */
export function decodeCursor<S extends z.ZodType>(schema: S, text: string): z.output<S> {
  if (text.length > 1024 || !/^[A-Za-z0-9_-]+$/.test(text)) throw invalidField(CURSOR_PARAM, BAD_CURSOR_MESSAGE);
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalidField(CURSOR_PARAM, BAD_CURSOR_MESSAGE);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw invalidField(CURSOR_PARAM, BAD_CURSOR_MESSAGE);
  return parsed.data;
}

/**
 * An instant as a cursor holds it: microseconds (what timestamptz keeps, and a JS Date would round away), UTC.
 * Select the sort column through `cursorInstantSql` so that the cursor compares equal to the row.
 */
export const cursorInstant = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
  .refine((text) => {
    const date = new Date(text);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 19) === text.slice(0, 19);
  });

/** SQL rendering a timestamptz column as a `cursorInstant` (compare it back with `$n::timestamptz`). */
export function cursorInstantSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

export interface PageSize {
  /** The page size without `?limit`. */
  readonly defaultLimit: number;
  /** The largest `?limit` accepted (400 above). */
  readonly maxLimit: number;
}

export interface PageRequest<K> {
  readonly limit: number;
  /** The key of the previous page's last row; undefined for the first page. */
  readonly after?: K;
}

/** `?limit` (1 to maxLimit, default defaultLimit) and `?cursor` (a key of `schema`) of a paged list. */
export function pageRequest<S extends z.ZodType>(req: Request, schema: S, size: PageSize): PageRequest<z.output<S>> {
  const limit = queryInteger(req, 'limit', size.defaultLimit, 1, size.maxLimit);
  const cursor = queryText(req, CURSOR_PARAM);
  return cursor === undefined ? { limit } : { limit, after: decodeCursor(schema, cursor) };
}

/**
 * The page of rows fetched with `LIMIT limit + 1`: the extra row only tells that a next page exists. `keyOf` gives
 * a row's key (what the next page's query compares against).
 */
export function pageOf<R, K>(rows: readonly R[], limit: number, keyOf: (row: R) => K): { readonly rows: readonly R[]; readonly next: string | null } {
  if (rows.length <= limit) return { rows, next: null };
  const page = rows.slice(0, limit);
  return { rows: page, next: encodeCursor(keyOf(page[page.length - 1]!)) };
}
