import type { Express } from 'express';
import request from 'supertest';
import { expect } from 'vitest';

/** One paged list of the API as a test drives it: path, credentials and fixed query parameters. */
export interface PagedList {
  readonly app: Express;
  readonly path: string;
  readonly auth: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | number>>;
}

export interface FetchedPage {
  readonly ids: readonly string[];
  readonly next: string | null;
}

/** A cursor as a client could forge one: base64url JSON of any value. */
export function forgeCursor(key: unknown): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** One page; fails unless the answer is 200 `{data: [{_id}…], next}` and nothing else. */
export async function fetchPage(list: PagedList, params: Readonly<Record<string, string | number>>): Promise<FetchedPage> {
  const res = await request(list.app).get(list.path).query({ ...list.query, ...params }).set(list.auth);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(Object.keys(res.body as object).sort()).toEqual(['data', 'next']);
  const next = (res.body as { next: unknown }).next;
  expect(next === null || typeof next === 'string').toBe(true);
  return { ids: (res.body.data as { _id: string }[]).map((row) => row._id), next: next as string | null };
}

/** Every page from `cursor` on (the first page without one), `limit` rows each: the ids in order and the page count. */
export async function walkPages(list: PagedList, limit: number, cursor?: string): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let pages = 0;
  let next: string | null | undefined = cursor;
  do {
    const page: FetchedPage = await fetchPage(list, { limit, ...(next ? { cursor: next } : {}) });
    pages += 1;
    expect(page.ids.length).toBeLessThanOrEqual(limit);
    if (page.next !== null) expect(page.ids.length).toBe(limit);
    ids.push(...page.ids);
    next = page.next;
  } while (next);
  return { ids, pages };
}

/**
 * Pages of 2 through the whole list while `add` adds a row after the first page: every row of the list as it stood
 * comes exactly once and in order, and the new row comes only where it sorts after the cursor (a row sorting
 * before it belongs to pages already read). The list must be at most 100 rows long.
 */
export async function expectStableWhileAdding(list: PagedList, add: () => Promise<void>, atLeast = 5): Promise<void> {
  const whole = (await fetchPage(list, { limit: 100 })).ids;
  expect(whole.length).toBeGreaterThanOrEqual(atLeast);
  const first = await fetchPage(list, { limit: 2 });
  expect(first.ids).toEqual(whole.slice(0, 2));
  expect(first.next).not.toBeNull();
  await add();
  const after = (await fetchPage(list, { limit: 100 })).ids;
  expect(after.length).toBe(whole.length + 1);
  const cursorAt = after.indexOf(first.ids[1]!);
  const rest = await walkPages(list, 2, first.next!);
  expect([...first.ids, ...rest.ids]).toEqual(after.filter((id, index) => whole.includes(id) || index > cursorAt));
  expect(new Set(rest.ids).size).toBe(rest.ids.length);
}

/** 400 `{path: 'cursor'}` for cursors that are not of this list: garbage, not JSON, another shape, a bad date. */
export async function expectBadCursorsRefused(list: PagedList, wrongKeys: readonly unknown[]): Promise<void> {
  const cursors = ['not a cursor', '%%%', Buffer.from('{"unclosed', 'utf8').toString('base64url'), forgeCursor(null), forgeCursor(42), ...wrongKeys.map(forgeCursor)];
  for (const cursor of cursors) {
    const res = await request(list.app).get(list.path).query({ ...list.query, cursor }).set(list.auth);
    expect(res.status, `${cursor}: ${JSON.stringify(res.body)}`).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'cursor', message: 'cursor is not a cursor of this list: pass back the `next` of a previous page' }]);
  }
}

/** A cursor past the end of the list answers an empty last page. */
export async function expectEmptyPastTheEnd(list: PagedList, lastKey: unknown): Promise<void> {
  expect(await fetchPage(list, { limit: 5, cursor: forgeCursor(lastKey) })).toEqual({ ids: [], next: null });
}
