import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectBadCursorsRefused, expectEmptyPastTheEnd, expectStableWhileAdding, fetchPage, walkPages, type PagedList } from './testing/pagedLists';
import { createTestApp, type SignedIn, type TestApp } from './testing/testApp';

/** Every paged list of the API (docs/api.md, "Paged lists"): the same shape, stable cursors, 400 for a bad one. */
let t: TestApp;
let admin: SignedIn;
let customer: SignedIn;
const ZERO_ID = '00000000-0000-4000-8000-000000000000';
const EPOCH = '1970-01-01T00:00:00.000000Z';

beforeAll(async () => {
  t = await createTestApp('paged_lists');
  admin = await t.staff('admin');
  customer = await t.customer({ firstName: 'Paging', lastName: 'Payer' });
});

afterAll(async () => {
  await t?.close();
});

let posted = 0;
async function postTransaction(userId: string): Promise<void> {
  posted += 1;
  await request(t.app)
    .post(`/api/transaction/admin/${userId}`)
    .set(admin.auth)
    .send({ amount: 10 + posted, transactionType: 'credit', date: new Date().toISOString(), description: `Paged ${posted}` })
    .expect(201);
  await t.settle();
}

const list = (path: string, query: Record<string, string> = {}, auth = admin.auth): PagedList => ({ app: t.app, path, auth, query });

describe('GET /user/admin', () => {
  const tag = 'pagingtagusers';
  it('pages the search results without repeating or skipping a customer while customers sign up', async () => {
    for (let i = 0; i < 5; i += 1) await t.customer({ firstName: `${tag}${i}`, lastName: 'Listed' });
    await expectStableWhileAdding(list('/api/user/admin', { search: tag }), async () => {
      await t.customer({ firstName: `${tag}new`, lastName: 'Listed' });
    });
  });

  it('answers an empty last page past the end, and 400 for cursors of no customer', async () => {
    await expectEmptyPastTheEnd(list('/api/user/admin'), { createdAt: EPOCH, id: ZERO_ID });
    await expectBadCursorsRefused(list('/api/user/admin'), [
      { date: EPOCH, id: ZERO_ID },
      { createdAt: '2026-02-31T00:00:00.000000Z', id: ZERO_ID },
      { createdAt: EPOCH, id: 'not-a-uuid' },
    ]);
    const both = await request(t.app).get('/api/user/admin').query({ offset: 1, cursor: Buffer.from(JSON.stringify({ createdAt: EPOCH, id: ZERO_ID })).toString('base64url') }).set(admin.auth);
    expect(both.status).toBe(400);
  });

  it('a search that finds nothing is one empty page', async () => {
    expect(await fetchPage(list('/api/user/admin', { search: 'nobody-by-this-name' }), {})).toEqual({ ids: [], next: null });
  });
});

describe('GET /transaction/admin/:userId, GET /transaction/admin, GET /transaction/complete', () => {
  it("pages one customer's transactions while new ones are posted", async () => {
    for (let i = 0; i < 5; i += 1) await postTransaction(customer.userId);
    await expectStableWhileAdding(list(`/api/transaction/admin/${customer.userId}`), () => postTransaction(customer.userId));
  });

  it('pages every transaction, and the customer their own', async () => {
    await expectStableWhileAdding(list('/api/transaction/admin'), () => postTransaction(customer.userId));
    await expectStableWhileAdding(list('/api/transaction/complete', {}, customer.auth), () => postTransaction(customer.userId));
  });

  it('answers an empty page past the end and 400 for bad cursors (and for a cursor with before)', async () => {
    await expectEmptyPastTheEnd(list(`/api/transaction/admin/${customer.userId}`), { date: EPOCH, id: ZERO_ID });
    await expectEmptyPastTheEnd(list('/api/transaction/admin'), { date: EPOCH, id: ZERO_ID });
    await expectBadCursorsRefused(list('/api/transaction/admin'), [{ createdAt: EPOCH, id: ZERO_ID }, { date: '2026-13-01T00:00:00.000000Z', id: ZERO_ID }]);
    await expectBadCursorsRefused(list('/api/transaction/complete', {}, customer.auth), [{ date: EPOCH }]);
    const page = await fetchPage(list('/api/transaction/admin'), { limit: 1 });
    const both = await request(t.app).get('/api/transaction/admin').query({ cursor: page.next, before: page.ids[0] }).set(admin.auth);
    expect(both.status).toBe(400);
  });
});

describe('GET /contacts', () => {
  let sent = 0;
  const send = async () => {
    sent += 1;
    await request(t.app).post('/api/contacts').send({ name: 'Pager', email: 'pager@example.com', subject: `Subject ${sent}`, message: 'Hello' }).expect(201);
    await t.settle();
  };

  it('pages the messages while new ones arrive; empty past the end; 400 for bad cursors', async () => {
    for (let i = 0; i < 5; i += 1) await send();
    await expectStableWhileAdding(list('/api/contacts'), send);
    await expectEmptyPastTheEnd(list('/api/contacts'), { createdAt: EPOCH, id: ZERO_ID });
    await expectBadCursorsRefused(list('/api/contacts'), [{ date: EPOCH, id: ZERO_ID }]);
  });
});

describe('GET /beneficiaries', () => {
  let added = 0;
  const add = async () => {
    added += 1;
    await request(t.app).post('/api/beneficiaries').set(admin.auth).send({ name: `Payee ${added}`, accountNumber: String(70_000_000 + added) }).expect(201);
    await t.settle();
  };

  it('pages the directory while entries are added, for the admin and for customers; 400 for bad cursors', async () => {
    for (let i = 0; i < 5; i += 1) await add();
    await expectStableWhileAdding(list('/api/beneficiaries'), add);
    await expectStableWhileAdding(list('/api/beneficiaries', {}, customer.auth), add);
    await expectEmptyPastTheEnd(list('/api/beneficiaries'), { createdAt: EPOCH, id: ZERO_ID });
    await expectBadCursorsRefused(list('/api/beneficiaries'), [{ createdAt: 'yesterday', id: ZERO_ID }]);
  });
});

describe('GET /audit/log', () => {
  it('pages the staff actions while staff keep acting; empty past the end; 400 for bad cursors and for offset with a cursor', async () => {
    for (let i = 0; i < 5; i += 1) await postTransaction(customer.userId);
    await expectStableWhileAdding(list('/api/audit/log'), () => postTransaction(customer.userId));
    await expectEmptyPastTheEnd(list('/api/audit/log'), { at: EPOCH, position: `${'0'.repeat(20)}:${'0'.repeat(20)}` });
    await expectBadCursorsRefused(list('/api/audit/log'), [{ at: EPOCH, position: '1; DROP TABLE x' }, { createdAt: EPOCH, id: ZERO_ID }]);
    const page = await fetchPage(list('/api/audit/log'), { limit: 1 });
    expect((await request(t.app).get('/api/audit/log').query({ cursor: page.next, offset: 1 }).set(admin.auth)).status).toBe(400);
  });

  it('pages a filtered log (one action type) the same way', async () => {
    const all = await walkPages(list('/api/audit/log'), 3);
    const type = ((await request(t.app).get('/api/audit/log').query({ limit: 1 }).set(admin.auth)).body.data as { action: string }[])[0]!.action;
    const filtered = await walkPages(list('/api/audit/log', { type }), 2);
    expect(filtered.ids.length).toBeGreaterThanOrEqual(5);
    expect(filtered.ids).toEqual(all.ids.filter((id) => filtered.ids.includes(id)));
  });
});

describe('GET /audit/users?search', () => {
  const tag = 'auditpagingtag';
  it('pages the search results (open customers first, then by name) while customers sign up; 400 for bad cursors', async () => {
    for (let i = 0; i < 5; i += 1) await t.customer({ firstName: tag, lastName: `Name${i}` });
    await expectStableWhileAdding(list('/api/audit/users', { search: tag }), async () => {
      await t.customer({ firstName: tag, lastName: 'Aardvark' });
    });
    await expectEmptyPastTheEnd(list('/api/audit/users', { search: tag }), { closed: true, lastName: '\u{10FFFF}', firstName: '', id: ZERO_ID });
    await expectBadCursorsRefused(list('/api/audit/users', { search: tag }), [{ closed: 'no', lastName: 'a', firstName: 'b', id: ZERO_ID }]);
  });
});
