import { randomUUID } from 'node:crypto';
import { writeNachaFile, type Role } from '@bank/domain';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeCatalogue } from './features/openapi/routeCatalogue';
import { createStaffUser } from './staff/createStaffUser';
import { createTestApp, PNG_DATA_URL, STAFF_TEST_PASSWORD, TEST_PASSWORD, uniqueEmail, type SignedIn, type TestApp } from './testing/testApp';

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
  /** A text/plain body instead (a NACHA file). */
  readonly text?: () => string;
  /** Allowed callers for which the contract's success cannot happen (e.g. staff have no account to transfer from). */
  readonly notSuccessFor?: readonly Caller[];
}

const callersByRole = new Map<Caller, () => Promise<SignedIn>>();

let nachaTrace = 1;
/** A NACHA file of one entry to an account of no customer: a return of an entry never sent, or an incoming credit. */
function nachaFile(asReturn: boolean): string {
  nachaTrace += 1;
  const traceNumber = `01100001${String(Date.now() % 1_000_000).padStart(6, '0')}${nachaTrace % 10}`;
  return writeNachaFile({
    header: { immediateDestination: '102000021', immediateOrigin: '011000015', creationDate: '2026-11-26', creationTime: '0800', fileIdModifier: 'A', immediateDestinationName: 'Summit Bank', immediateOriginName: 'Fed', referenceCode: '' },
    batches: [
      {
        header: { companyName: 'Matrix', companyDiscretionaryData: '', companyIdentification: '1234567890', secCode: 'PPD', companyEntryDescription: 'MATRIX', companyDescriptiveDate: '', effectiveEntryDate: '2026-11-26', settlementDate: '', originatorStatusCode: '1', odfiIdentification: '01100001' },
        entries: [
          {
            transactionCode: asReturn ? 21 : 22,
            rdfiRoutingNumber: '102000021',
            accountNumber: '9999999999',
            amountCents: 100,
            individualIdentification: 'MATRIX',
            individualName: 'Nobody',
            discretionaryData: '',
            traceNumber,
            ...(asReturn ? { addenda: { type: '99' as const, returnReasonCode: 'R01' as const, originalTraceNumber: '102000029999999', dateOfDeath: '', originalReceivingDfi: '01100001', addendaInformation: '' } } : {}),
          },
        ],
      },
    ],
  });
}

/** The UTC date after today (the test app's business date follows the calendar). */
function tomorrowUtc(): string {
  return new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
}

async function freshCustomerId(): Promise<string> {
  return (await t.customer()).userId;
}

async function freshBeneficiaryId(): Promise<string> {
  const res = await request(t.app).post('/api/beneficiaries').set(await adminAuth()).send({ name: 'Matrix', accountNumber: String(Date.now()).slice(-12) + String(Math.floor(Math.random() * 90 + 10)) });
  return res.body.data._id as string;
}

async function freshContactId(): Promise<string> {
  const subject = randomUUID();
  await request(t.app).post('/api/contacts').send({ name: 'M', email: 'm@example.com', subject, message: 'x' }).expect(201);
  const list = await request(t.app).get('/api/contacts').set(await adminAuth());
  return (list.body.data as { _id: string; subject: string }[]).find((contact) => contact.subject === subject)!._id;
}

/** A session of the admin for building fixtures (a case may have ended the admin's other sessions). */
async function adminAuth(): Promise<SignedIn['auth']> {
  return (await t.newSession(admin, 'admin')).auth;
}

/** A challenge of a staff member who has to enrol (each case needs its own). */
async function freshEnrolChallenge(): Promise<string> {
  const email = uniqueEmail('enrol');
  await createStaffUser(t.deps, { role: 'auditor', email, password: STAFF_TEST_PASSWORD });
  await t.settle();
  const res = await request(t.app).post('/api/auth/signin').send({ email, password: STAFF_TEST_PASSWORD }).expect(200);
  return res.body.challenge as string;
}

/** A customer who turned the second factor on; returns the id. */
async function freshCustomerWithFactor(): Promise<string> {
  const customer = await t.customer();
  const setup = await request(t.app).post('/api/auth/second-factor/setup').set(customer.auth).send({}).expect(200);
  await request(t.app).post('/api/auth/second-factor/confirm').set(customer.auth).send({ code: await t.freshCode(setup.body.secret as string) }).expect(200);
  return customer.userId;
}

function standingOrderBody(): object {
  return {
    from: 'savings',
    amount: 1,
    accountNumber: payee.accountNumber,
    accountType: 'savings',
    paymentPin: '123456',
    schedule: { frequency: 'monthly', day: 1, firstDate: '2099-01-01' },
  };
}

/** The path of a standing order of the caller's own (a customer's), or of no order (anyone else). */
async function ownOrderPath(fx: Fixture, suffix: string): Promise<string> {
  const created = fx.me ? await request(t.app).post('/api/standing-orders').set(fx.me.auth).send(standingOrderBody()) : undefined;
  const id = created?.status === 201 ? (created.body.data._id as string) : randomUUID();
  return `/api/standing-orders/${id}${suffix}`;
}

function sessionIdOf(user: SignedIn): string {
  const payload = JSON.parse(Buffer.from(user.token.split('.')[1] ?? '', 'base64url').toString()) as { sid: string };
  return payload.sid;
}

async function freshTransactionId(): Promise<{ userId: string; transactionId: string }> {
  const customer = await t.customer();
  await request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(await adminAuth()).send({ savings: 10, checking: 0, number: customer.accountNumber }).expect(200);
  const list = await request(t.app).get(`/api/transaction/admin/${customer.userId}`).set(await adminAuth());
  return { userId: customer.userId, transactionId: (list.body.data as { _id: string }[])[0]!._id };
}

const profile = (fx: Fixture) => ({ email: fx.me?.email ?? 'x@example.com', phoneNumber: '555', address: '1 Main', state: 'NY' });

const cases: readonly Case[] = [
  { method: 'get', route: '/health', path: () => '/api/health' },
  { method: 'get', route: '/ready', path: () => '/api/ready' },
  { method: 'get', route: '/openapi.json', path: () => '/api/openapi.json' },
  {
    method: 'post',
    route: '/auth/signup',
    path: () => '/api/auth/signup',
    body: () => ({ firstName: 'M', lastName: 'X', email: uniqueEmail('matrix'), phone: '1', password: TEST_PASSWORD, address: 'a', state: 's' }),
  },
  { method: 'post', route: '/auth/signin', path: () => '/api/auth/signin', body: () => ({ email: admin.email, password: admin.password }) },
  { method: 'post', route: '/auth/second-factor/enrol', path: () => '/api/auth/second-factor/enrol', body: async () => ({ challenge: await freshEnrolChallenge() }) },
  {
    method: 'post',
    route: '/auth/second-factor',
    path: () => '/api/auth/second-factor',
    body: async () => {
      const challenge = await freshEnrolChallenge();
      const { secret } = (await request(t.app).post('/api/auth/second-factor/enrol').send({ challenge }).expect(200)).body as { secret: string };
      return { challenge, code: await t.freshCode(secret) };
    },
  },
  { method: 'get', route: '/auth/second-factor', path: () => '/api/auth/second-factor' },
  // Staff have theirs already (409); a customer gets a secret to confirm.
  { method: 'post', route: '/auth/second-factor/setup', path: () => '/api/auth/second-factor/setup', body: () => ({}), notSuccessFor: ['admin', 'auditor'] },
  // Allowed to all; refused by the rules here (nothing set up: 422; staff: already on, 409).
  { method: 'post', route: '/auth/second-factor/confirm', path: () => '/api/auth/second-factor/confirm', body: () => ({ code: '123456' }), notSuccessFor: ['customer', 'admin', 'auditor'] },
  // Customers only; this one has none to turn off (422).
  { method: 'delete', route: '/auth/second-factor', path: () => '/api/auth/second-factor', body: () => ({ password: TEST_PASSWORD, code: '123456' }), notSuccessFor: ['customer'] },
  { method: 'get', route: '/auth/sessions', path: () => '/api/auth/sessions' },
  { method: 'delete', route: '/auth/sessions/:id', path: (fx) => `/api/auth/sessions/${fx.me ? sessionIdOf(fx.me) : randomUUID()}` },
  { method: 'post', route: '/auth/sessions/revoke-others', path: () => '/api/auth/sessions/revoke-others' },
  { method: 'get', route: '/auth/sign-in-notices', path: () => '/api/auth/sign-in-notices' },
  // No notice to dismiss for these callers: 404 once past the guard.
  { method: 'delete', route: '/auth/sign-in-notices/:id', path: () => `/api/auth/sign-in-notices/${randomUUID()}`, notSuccessFor: ['customer', 'admin', 'auditor'] },
  { method: 'get', route: '/user/admin/:id/second-factor', path: () => `/api/user/admin/${payee.userId}/second-factor` },
  {
    method: 'post',
    route: '/user/admin/:id/second-factor/reset',
    path: async () => `/api/user/admin/${await freshCustomerWithFactor()}/second-factor/reset`,
    body: () => ({ reason: 'Lost phone' }),
  },
  { method: 'post', route: '/contacts', path: () => '/api/contacts', body: () => ({ name: 'M', email: 'm@example.com', message: 'hello' }) },
  { method: 'post', route: '/auth/signout', path: () => '/api/auth/signout' },
  { method: 'get', route: '/auth/user', path: () => '/api/auth/user' },
  { method: 'get', route: '/user/me', path: () => '/api/user/me' },
  {
    method: 'post',
    route: '/auth/change-password',
    path: () => '/api/auth/change-password',
    body: (fx) => ({ oldPassword: fx.me?.password ?? TEST_PASSWORD, newPassword: fx.me?.password ?? TEST_PASSWORD }),
  },
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
    body: () => ({ from: 'savings', amount: 1, accountNumber: '5555555555', bankName: 'Other Bank', routingNumber: '021000021', accountType: 'savings', to: 'Someone', description: 'm', paymentPin: '123456' }),
    // Staff have no account and no payment pin: the transfer is refused by the bank's rules (422), not by the role.
    notSuccessFor: ['admin'],
  },
  { method: 'get', route: '/statements', path: () => '/api/statements?account=checking&from=2025-01-01&to=2025-01-31' },
  // Staff have no account and no payment pin: their orders are refused by the bank's rules (422), not by the role.
  { method: 'post', route: '/standing-orders', path: () => '/api/standing-orders', body: () => standingOrderBody(), notSuccessFor: ['admin'] },
  { method: 'get', route: '/standing-orders', path: () => '/api/standing-orders' },
  { method: 'post', route: '/standing-orders/:id/pause', path: (fx) => ownOrderPath(fx, '/pause'), notSuccessFor: ['admin'] },
  { method: 'post', route: '/standing-orders/:id/resume', path: (fx) => ownOrderPath(fx, '/resume'), notSuccessFor: ['admin'] },
  { method: 'delete', route: '/standing-orders/:id', path: (fx) => ownOrderPath(fx, ''), notSuccessFor: ['admin'] },
  { method: 'get', route: '/user/admin/:id/standing-orders', path: () => `/api/user/admin/${payee.userId}/standing-orders` },
  { method: 'get', route: '/transaction/admin', path: () => '/api/transaction/admin' },
  { method: 'get', route: '/transaction/admin/:userId', path: () => `/api/transaction/admin/${payee.userId}` },
  {
    method: 'post',
    route: '/transaction/admin/:userId',
    path: () => `/api/transaction/admin/${payee.userId}`,
    body: () => ({ amount: 1, transactionType: 'credit', date: '2025-01-01', description: 'Matrix' }),
  },
  { method: 'delete', route: '/transaction/admin/:id', path: async () => `/api/transaction/admin/${(await freshTransactionId()).transactionId}` },
  { method: 'get', route: '/admin/business-date', path: () => '/api/admin/business-date' },
  // The test app follows the calendar: an admin's advance is refused with 409 (the advance itself: businessDate.int.test.ts).
  { method: 'post', route: '/admin/business-date/advance', path: () => '/api/admin/business-date/advance', body: () => ({ days: 1 }), notSuccessFor: ['admin'] },
  // ACH: a file built now (or none waiting: 200 either way); the files of this app; a file that does not exist is
  // 404 for the roles allowed (not a role refusal); NACHA files whose entries match nothing here.
  { method: 'post', route: '/admin/ach/files', path: () => '/api/admin/ach/files' },
  { method: 'get', route: '/admin/ach/files', path: () => '/api/admin/ach/files' },
  { method: 'get', route: '/admin/ach/files/:id', path: () => `/api/admin/ach/files/${randomUUID()}`, notSuccessFor: ['admin', 'auditor'] },
  { method: 'get', route: '/admin/ach/files/:id/download', path: () => `/api/admin/ach/files/${randomUUID()}/download`, notSuccessFor: ['admin', 'auditor'] },
  { method: 'post', route: '/admin/ach/returns', path: () => '/api/admin/ach/returns', text: () => nachaFile(true) },
  { method: 'post', route: '/admin/ach/incoming', path: () => '/api/admin/ach/incoming', text: () => nachaFile(false) },
  { method: 'get', route: '/rates', path: () => '/api/rates' },
  // A change from tomorrow (the test app follows the calendar: the business date is today).
  { method: 'put', route: '/admin/rates', path: () => '/api/admin/rates', body: () => ({ account: 'checking', annualRate: 0.5, effectiveFrom: tomorrowUtc() }) },
  // Staff have no account: their interest is a customer's they are not (404 'User not found'), not a role refusal.
  { method: 'get', route: '/interest', path: () => '/api/interest', notSuccessFor: ['admin'] },
  // E-mail: the links' tokens come in messages (features/mail/mail.int.test.ts); a made-up one is 400 for anyone.
  { method: 'get', route: '/bank', path: () => '/api/bank' },
  { method: 'post', route: '/auth/forgot-password', path: () => '/api/auth/forgot-password', body: () => ({ email: uniqueEmail('forgot') }) },
  { method: 'post', route: '/auth/reset-password', path: () => '/api/auth/reset-password', body: () => ({ token: randomUUID(), newPassword: 'matrix-secret' }), notSuccessFor: callers },
  { method: 'post', route: '/auth/verify-email', path: () => '/api/auth/verify-email', body: () => ({ token: randomUUID() }), notSuccessFor: callers },
  { method: 'post', route: '/user/verify-email', path: () => '/api/user/verify-email' },
  { method: 'get', route: '/user/notifications', path: () => '/api/user/notifications' },
  { method: 'put', route: '/user/notifications', path: () => '/api/user/notifications', body: () => ({ moneyReceived: true }) },
  // The auditors' routes (staff: admin and auditor), on a customer of this app.
  { method: 'get', route: '/audit/users', path: () => '/api/audit/users' },
  { method: 'get', route: '/audit/users/:id/events', path: () => `/api/audit/users/${payee.userId}/events` },
  { method: 'get', route: '/audit/users/:id/balances', path: () => `/api/audit/users/${payee.userId}/balances` },
  { method: 'get', route: '/audit/users/:id/statements', path: () => `/api/audit/users/${payee.userId}/statements?account=checking&from=2025-01-01&to=2025-01-31` },
  { method: 'get', route: '/audit/users/:id/interest', path: () => `/api/audit/users/${payee.userId}/interest` },
  { method: 'get', route: '/audit/log', path: () => '/api/audit/log' },
  { method: 'get', route: '/audit/verify', path: () => '/api/audit/verify' },
  { method: 'get', route: '/audit/ledger/accounts', path: () => '/api/audit/ledger/accounts' },
  { method: 'get', route: '/audit/ledger/trial-balance', path: () => '/api/audit/ledger/trial-balance' },
  { method: 'get', route: '/audit/ledger/accounts/:key/entries', path: () => '/api/audit/ledger/accounts/cash-at-fed/entries' },
  { method: 'get', route: '/audit/ledger/reconciliation', path: () => '/api/audit/ledger/reconciliation' },
  { method: 'get', route: '/audit/ledger/days', path: () => '/api/audit/ledger/days' },
];

beforeAll(async () => {
  t = await createTestApp('authorization_matrix');
  admin = await t.staff('admin');
  payee = await t.customer();
  const auditor = await t.staff('auditor');
  // A fresh session per case (sign-out and revocations end the caller's session); staff sessions as after their
  // second factor (the sign-in itself is tested in features/auth/secondFactor.int.test.ts).
  callersByRole.set('admin', () => t.newSession(admin, 'admin'));
  callersByRole.set('auditor', () => t.newSession(auditor, 'auditor'));
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
        const res = c.text ? await req.type('text/plain').send(c.text()) : c.body ? await req.send(await c.body(fx)) : await req;
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

  it('GET /audit/ledger/* (the books): auditor, admin', async () => {
    for (const path of ['/accounts', '/trial-balance', '/accounts/cash-at-fed/entries', '/reconciliation', '/days']) {
      for (const caller of callers) {
        const me = caller === 'none' ? undefined : await callersByRole.get(caller)!();
        const req = request(t.app).get(`/api/audit/ledger${path}`);
        const res = me ? await req.set(me.auth) : await req;
        const expected = caller === 'none' ? 401 : caller === 'customer' ? 403 : 200;
        expect(res.status, `${path} ${caller} → ${res.status}`).toBe(expected);
      }
    }
  });

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
