import { randomUUID } from 'node:crypto';
import type { Role } from '@bank/domain';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeCatalogue } from './features/openapi/routeCatalogue';
import { createTestApp, PNG_DATA_URL, TEST_PASSWORD, uniqueEmail, type SignedIn, type TestApp } from './testing/testApp';

/**
 * Every route with no token, a customer's, an auditor's and an admin's: 401 without a token on every protected
 * route, 403 for a signed-in role the contract does not allow, and a success (2xx) for the roles it allows.
 */
let t: TestApp;
let admin: SignedIn;
let fileUrl: string;
let payee: SignedIn;

type Caller = 'none' | Role;
const callers: readonly Caller[] = ['none', 'customer', 'auditor', 'admin'];

interface Fixture {
  /** The caller's own credentials (a fresh sign-in where the route consumes them). */
  readonly me: SignedIn | undefined;
}

interface Case {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** As in the route catalogue. */
  readonly route: string;
  readonly path: (fx: Fixture) => Promise<string> | string;
  readonly body?: (fx: Fixture) => Promise<object> | object;
  /** Allowed callers for which the contract's success cannot happen (e.g. staff have no account to transfer from). */
  readonly notSuccessFor?: readonly Caller[];
}

const callersByRole = new Map<Caller, () => Promise<SignedIn>>();

async function freshCustomerId(): Promise<string> {
  return (await t.customer()).userId;
}

async function freshBeneficiaryId(): Promise<string> {
  const res = await request(t.app).post('/api/beneficiaries').set(admin.auth).send({ name: 'Matrix', accountNumber: String(Date.now()).slice(-12) + String(Math.floor(Math.random() * 90 + 10)) });
  return res.body.data._id as string;
}

async function freshContactId(): Promise<string> {
  const subject = randomUUID();
  await request(t.app).post('/api/contacts').send({ name: 'M', email: 'm@example.com', subject, message: 'x' }).expect(201);
  const list = await request(t.app).get('/api/contacts').set(admin.auth);
  return (list.body.data as { _id: string; subject: string }[]).find((contact) => contact.subject === subject)!._id;
}

async function freshTransactionId(): Promise<{ userId: string; transactionId: string }> {
  const customer = await t.customer();
  await request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(admin.auth).send({ savings: 10, checking: 0, number: customer.accountNumber }).expect(200);
  const list = await request(t.app).get(`/api/transaction/admin/${customer.userId}`).set(admin.auth);
  return { userId: customer.userId, transactionId: (list.body.data as { _id: string }[])[0]!._id };
}

const profile = (fx: Fixture) => ({ email: fx.me?.email ?? 'x@example.com', phoneNumber: '555', address: '1 Main', state: 'NY' });

const cases: readonly Case[] = [
  { method: 'get', route: '/health', path: () => '/api/health' },
  { method: 'get', route: '/ready', path: () => '/api/ready' },
  { method: 'get', route: '/metrics', path: () => '/api/metrics' },
  { method: 'get', route: '/openapi.json', path: () => '/api/openapi.json' },
  {
    method: 'post',
    route: '/auth/signup',
    path: () => '/api/auth/signup',
    body: () => ({ firstName: 'M', lastName: 'X', email: uniqueEmail('matrix'), phone: '1', password: TEST_PASSWORD, address: 'a', state: 's' }),
  },
  { method: 'post', route: '/auth/signin', path: () => '/api/auth/signin', body: () => ({ email: admin.email, password: TEST_PASSWORD }) },
  { method: 'post', route: '/contacts', path: () => '/api/contacts', body: () => ({ name: 'M', email: 'm@example.com', message: 'hello' }) },
  { method: 'post', route: '/auth/signout', path: () => '/api/auth/signout' },
  { method: 'get', route: '/auth/user', path: () => '/api/auth/user' },
  { method: 'get', route: '/user/me', path: () => '/api/user/me' },
  { method: 'post', route: '/auth/change-password', path: () => '/api/auth/change-password', body: () => ({ oldPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD }) },
  { method: 'get', route: '/files/:id', path: () => fileUrl },
  {
    method: 'post',
    route: '/user/verification',
    path: () => '/api/user/verification',
    body: () => ({ passport: PNG_DATA_URL, documentFront: PNG_DATA_URL, documentType: 'passport', dateOfBirth: '1980-01-01' }),
  },
  { method: 'patch', route: '/user/profile', path: () => '/api/user/profile', body: profile },
  { method: 'patch', route: '/user/profile-picture', path: () => '/api/user/profile-picture', body: () => ({ image: PNG_DATA_URL }) },
  { method: 'post', route: '/cards/requests', path: () => '/api/cards/requests', body: () => ({}) },
  { method: 'get', route: '/beneficiaries', path: () => `/api/beneficiaries?accountNumber=${payee.accountNumber}` },
  { method: 'post', route: '/beneficiaries', path: () => '/api/beneficiaries', body: () => ({ name: 'Matrix Payee', accountNumber: String(Date.now()).slice(-11) }) },
  { method: 'delete', route: '/beneficiaries/:id', path: async () => `/api/beneficiaries/${await freshBeneficiaryId()}` },
  { method: 'get', route: '/contacts', path: () => '/api/contacts' },
  { method: 'delete', route: '/contacts/:id', path: async () => `/api/contacts/${await freshContactId()}` },
  { method: 'get', route: '/user/admin', path: () => '/api/user/admin' },
  { method: 'get', route: '/user/admin/email/:email', path: () => `/api/user/admin/email/${encodeURIComponent(payee.email)}` },
  { method: 'get', route: '/user/admin/:id', path: () => `/api/user/admin/${payee.userId}` },
  {
    method: 'put',
    route: '/user/admin/account/:id',
    path: async () => `/api/user/admin/account/${payee.userId}`,
    body: () => ({ savings: 100, checking: 50, number: payee.accountNumber }),
  },
  {
    method: 'put',
    route: '/user/admin/:id',
    path: () => `/api/user/admin/${payee.userId}`,
    body: () => ({ firstName: 'Pay', lastName: 'Ee', email: payee.email, phone: '1', location: { address: 'a', state: 's' }, verificationStatus: 'verified', isBlocked: false }),
  },
  { method: 'delete', route: '/user/admin/:id', path: async () => `/api/user/admin/${await freshCustomerId()}` },
  { method: 'get', route: '/transaction', path: () => '/api/transaction' },
  { method: 'get', route: '/transaction/complete', path: () => '/api/transaction/complete' },
  {
    method: 'post',
    route: '/transaction/transfer',
    path: () => '/api/transaction/transfer',
    body: () => ({ from: 'savings', amount: 1, accountNumber: '5555555555', bankName: 'Other Bank', routingNumber: '123456789', accountType: 'savings', to: 'Someone', description: 'm', paymentPin: '123456' }),
    // Staff have no account and no payment pin: the transfer is refused by the bank's rules (422), not by the role.
    notSuccessFor: ['admin'],
  },
  { method: 'get', route: '/transaction/admin', path: () => '/api/transaction/admin' },
  { method: 'get', route: '/transaction/admin/:userId', path: () => `/api/transaction/admin/${payee.userId}` },
  {
    method: 'post',
    route: '/transaction/admin/:userId',
    path: () => `/api/transaction/admin/${payee.userId}`,
    body: () => ({ amount: 1, transactionType: 'credit', date: '2025-01-01', description: 'Matrix' }),
  },
  { method: 'delete', route: '/transaction/admin/:id', path: async () => `/api/transaction/admin/${(await freshTransactionId()).transactionId}` },
];

beforeAll(async () => {
  t = await createTestApp('authorization_matrix');
  admin = await t.staff('admin');
  payee = await t.customer();
  const auditor = await t.staff('auditor');
  callersByRole.set('admin', () => t.signIn(admin.email, TEST_PASSWORD));
  callersByRole.set('auditor', () => t.signIn(auditor.email, TEST_PASSWORD));
  // The customer: a payment pin and money, so that a transfer can succeed.
  const customer = await t.customer();
  await request(t.app)
    .put(`/api/user/admin/${customer.userId}`)
    .set(admin.auth)
    .send({ firstName: 'C', lastName: 'D', email: customer.email, phone: '1', location: { address: 'a', state: 's' }, paymentPin: '123456' })
    .expect(200);
  await request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(admin.auth).send({ savings: 1000, checking: 0, number: customer.accountNumber }).expect(200);
  callersByRole.set('customer', () => t.signIn(customer.email, TEST_PASSWORD));
  const picture = await request(t.app).patch('/api/user/profile-picture').set(customer.auth).send({ image: PNG_DATA_URL }).expect(200);
  fileUrl = picture.body.data.profilePicture.url as string;
});

afterAll(async () => {
  await t?.close();
});

function allowed(access: 'public' | readonly Role[], caller: Caller): boolean {
  return access === 'public' || (caller !== 'none' && access.includes(caller));
}

describe('the authorization matrix', () => {
  it('covers every route of the catalogue', () => {
    expect(cases.map((c) => `${c.method} ${c.route}`).sort()).toEqual(routeCatalogue.map((route) => `${route.method} ${route.path}`).sort());
  });

  for (const c of cases) {
    const doc = routeCatalogue.find((route) => route.method === c.method && route.path === c.route);
    it(`${c.method.toUpperCase()} ${c.route}: ${doc?.access === 'public' ? 'public' : (doc?.access ?? []).join(', ')}`, async () => {
      if (!doc) throw new Error('not in the catalogue');
      for (const caller of callers) {
        const me = caller === 'none' ? undefined : await callersByRole.get(caller)!();
        const fx: Fixture = { me };
        let req = request(t.app)[c.method](await c.path(fx));
        if (me) req = req.set(me.auth);
        const res = c.body ? await req.send(await c.body(fx)) : await req;
        const where = `${caller} → ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`;
        if (allowed(doc.access, caller)) {
          if (c.notSuccessFor?.includes(caller)) expect([401, 403], where).not.toContain(res.status);
          else expect(res.status >= 200 && res.status < 300, where).toBe(true);
        } else {
          expect(res.status, where).toBe(caller === 'none' ? 401 : 403);
        }
      }
    });
  }

  it('GET /audit/* (the audit feature): auditor, admin', async () => {
    for (const caller of callers) {
      const me = caller === 'none' ? undefined : await callersByRole.get(caller)!();
      const req = request(t.app).get('/api/audit/log');
      const res = me ? await req.set(me.auth) : await req;
      const expected = caller === 'none' ? 401 : caller === 'customer' ? 403 : 200;
      expect(res.status, `${caller} → ${res.status}`).toBe(expected);
    }
  });
});
