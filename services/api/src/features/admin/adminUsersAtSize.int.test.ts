import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBulkCustomers } from '../../testing/bulkReadModels';
import { fetchPage, walkPages, type PagedList } from '../../testing/pagedLists';
import { createTestApp, type SignedIn, type TestApp } from '../../testing/testApp';

/** The contract of GET /user/admin without `limit` (docs/api.md): every customer up to 1,000, past that a first page. */
let t: TestApp;
let admin: SignedIn;
let users: PagedList;

beforeAll(async () => {
  t = await createTestApp('admin_users_size');
  admin = await t.staff('admin');
  users = { app: t.app, path: '/api/user/admin', auth: admin.auth };
});

afterAll(async () => {
  await t?.close();
});

async function idsInOrder(): Promise<string[]> {
  const { rows } = await t.deps.pool.query<{ id: string }>(
    `SELECT id FROM rm.users WHERE role = 'customer' AND NOT is_closed ORDER BY created_at DESC, id`,
  );
  return rows.map((row) => row.id);
}

describe('GET /user/admin at 1,000 customers and past them', () => {
  it('without limit answers every customer while there are at most 1,000 (next null)', async () => {
    await insertBulkCustomers(t.deps.pool, 999, 'size');
    const signedUp = await t.customer();
    const res = await request(t.app).get('/api/user/admin').set(admin.auth);
    expect(res.status).toBe(200);
    expect(res.body.next).toBeNull();
    const ids = (res.body.data as { _id: string }[]).map((user) => user._id);
    expect(ids).toHaveLength(1000);
    expect(ids).toEqual(await idsInOrder());
    expect(ids[0]).toBe(signedUp.userId);
  });

  it('past 1,000 answers the first page of 50 with a next cursor, and the pages hold every customer once', async () => {
    await t.customer();
    const order = await idsInOrder();
    expect(order).toHaveLength(1001);
    const first = await fetchPage(users, {});
    expect(first.ids).toEqual(order.slice(0, 50));
    expect(first.next).not.toBeNull();
    const rest = await walkPages(users, 1000, first.next!);
    expect([...first.ids, ...rest.ids]).toEqual(order);
    expect(rest.pages).toBe(1);
  });

  it('pages of 7 cross instants shared by several customers without losing or repeating one', async () => {
    const walked = await walkPages(users, 7);
    expect(walked.ids).toEqual(await idsInOrder());
    expect(walked.pages).toBe(Math.ceil(1001 / 7));
  });

  it('a cursor without limit answers pages of 50', async () => {
    const first = await fetchPage(users, { limit: 3 });
    const second = await fetchPage(users, { cursor: first.next! });
    expect(second.ids).toEqual((await idsInOrder()).slice(3, 53));
  });

  it('a search pages the same way: by fragment (trigrams) and by a one-or-two-character prefix', async () => {
    const byFragment = await walkPages({ ...users, query: { search: 'bulk12' } }, 4);
    const { rows } = await t.deps.pool.query<{ id: string }>(
      `SELECT id FROM rm.users WHERE role = 'customer' AND search_text LIKE '%bulk12%' ORDER BY created_at DESC, id`,
    );
    expect(rows.length).toBeGreaterThan(10);
    expect(byFragment.ids).toEqual(rows.map((row) => row.id));
    const byPrefix = await walkPages({ ...users, query: { search: '00' } }, 100);
    const prefixed = await t.deps.pool.query<{ id: string }>(
      `SELECT id FROM rm.users WHERE role = 'customer' AND (email_lower LIKE '00%' OR account_number LIKE '00%') ORDER BY created_at DESC, id`,
    );
    expect(prefixed.rows.length).toBeGreaterThan(900);
    expect(byPrefix.ids).toEqual(prefixed.rows.map((row) => row.id));
  });
});
