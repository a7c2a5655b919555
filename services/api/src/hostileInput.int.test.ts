import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_TOKEN_MESSAGE } from './auth/tokens';
import { requestJsonSchema } from './features/openapi/openApiDocument';
import { routeCatalogue } from './features/openapi/routeCatalogue';
import { createTestApp, PNG_DATA_URL, type SignedIn, type TestApp } from './testing/testApp';
import { encodeForUrl, headerText, hostileBody, hostileQuery, hostileSegment, toJsonText, type Hostile, type JsonSchema } from './testing/hostileJson';

/**
 * Hostile input against the real app (PostgreSQL, Redis, the projector): for every route, property-based bodies
 * (wrong types, missing and extra fields, huge strings, deep nesting, __proto__ keys, unicode, 1e309, -0, 0.001,
 * arrays for objects), path parameters, query strings and headers. Every answer is below 500; every refusal (4xx)
 * is JSON in the contract's error shape and changes nothing (event store head, read models, stored files). Then the
 * JWTs an attacker would try. FUZZ_RUNS scales the number of requests per route (default 20), FUZZ_SEED replays a run.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

let t: TestApp;
let admin: SignedIn;
let auditor: SignedIn;
let customer: SignedIn;
let target: SignedIn;
const ids = { beneficiary: '', contact: '', transaction: '', file: '' };

interface FuzzRoute {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express style, relative to /api. */
  readonly path: string;
  readonly caller: 'none' | 'customer' | 'admin' | 'auditor';
  readonly body?: JsonSchema;
  readonly query: readonly string[];
}

const routes: readonly FuzzRoute[] = [
  ...routeCatalogue.map(
    (route): FuzzRoute => ({
      method: route.method,
      path: route.path,
      caller: route.access === 'public' ? 'none' : route.access.includes('customer') ? 'customer' : route.access.includes('admin') ? 'admin' : 'auditor',
      ...(route.body ? { body: requestJsonSchema(route.body) as JsonSchema } : {}),
      query: Object.keys(route.query ?? {}),
    }),
  ),
];

/** A real value for a path parameter, so that body and header fuzzing reach the route's own checks. */
function realParam(route: FuzzRoute, name: string): string {
  // Never a real target for a DELETE: it would succeed once and then test nothing but 404.
  if (route.method === 'delete') return randomUUID();
  if (name === 'email') return target.email;
  if (name === 'key') return 'customer-savings';
  if (route.path.startsWith('/files/')) return ids.file;
  if (route.path.startsWith('/beneficiaries/')) return ids.beneficiary;
  if (route.path.startsWith('/contacts/')) return ids.contact;
  return target.userId;
}

/** The route's URL with each parameter replaced by `params(name)`, already encoded. */
function fill(route: FuzzRoute, params: (name: string) => string): string {
  return `/api${route.path.replace(/:(\w+)/g, (_match, name: string) => params(name))}`;
}

const realParams = (route: FuzzRoute) => (name: string) => encodeForUrl(realParam(route, name));

/** What a refusal must leave as it was: the log's head, the read models, the stored files. */
async function bankState(): Promise<unknown> {
  const { rows } = await t.deps.pool.query(`SELECT
    (SELECT count(*) FROM eventstore.events) AS events,
    (SELECT coalesce(max(global_position), 0) FROM eventstore.events) AS head,
    (SELECT count(*) FROM rm.users) AS users,
    (SELECT count(*) FROM rm.transactions) AS transactions,
    (SELECT coalesce(sum(savings_cents + checking_cents), 0) FROM rm.accounts) AS money,
    (SELECT count(*) FROM rm.contacts) AS contacts,
    (SELECT count(*) FROM rm.beneficiaries) AS beneficiaries,
    (SELECT count(*) FROM files.files) AS files,
    (SELECT count(*) FROM files.file_access) AS file_access`);
  return { ...rows[0], head: String((await t.store.headPosition())?.prepare ?? 'none') };
}

function expectErrorShape(res: request.Response, where: string): void {
  expect(res.headers['content-type'], where).toMatch(/^application\/json/);
  const body = res.body as Record<string, unknown>;
  expect(Object.keys(body).filter((key) => key !== 'message' && key !== 'errors'), where).toEqual([]);
  expect(typeof body.message === 'string' && body.message.length > 0, where).toBe(true);
  if (body.errors !== undefined) {
    expect(Array.isArray(body.errors), where).toBe(true);
    for (const issue of body.errors as unknown[]) expect(issue, where).toEqual({ path: expect.any(String), message: expect.any(String) });
  }
}

interface Attempt {
  readonly url: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

const sessions = new Map<FuzzRoute, SignedIn | undefined>();

/** Each route gets its own session: a route may end it (sign-out) without touching the others. */
async function sessionFor(route: FuzzRoute): Promise<SignedIn | undefined> {
  if (!sessions.has(route)) {
    const who = { none: undefined, customer, admin, auditor }[route.caller];
    // Staff sign in with a second factor: their sessions are opened directly (as a completed sign-in would).
    const session = who === undefined ? undefined : route.caller === 'customer' ? await t.signIn(who.email, who.password) : await t.newSession(who, route.caller === 'admin' ? 'admin' : 'auditor');
    sessions.set(route, session);
  }
  return sessions.get(route);
}

/** Sends one hostile request and checks the answer and, on a refusal, that nothing changed. */
async function attempt(route: FuzzRoute, input: Attempt): Promise<void> {
  const session = await sessionFor(route);
  const headers: Record<string, string> = { ...(session ? session.auth : {}), ...input.headers };
  const where = `${route.method.toUpperCase()} ${input.url.slice(0, 200)} ${JSON.stringify(input.headers ?? {}).slice(0, 200)} ${(input.body ?? '').slice(0, 300)}`;
  const before = await bankState();
  let req = request(t.app)[route.method](input.url);
  for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
  if (input.body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) req = req.set('Content-Type', 'application/json');
  const res = input.body === undefined ? await req : await req.send(input.body);
  expect(res.status, `${where} → ${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400) {
    expectErrorShape(res, `${where} → ${res.status} ${res.text.slice(0, 300)}`);
    expect(await bankState(), `${where} → ${res.status} changed the bank`).toEqual(before);
  } else {
    await t.settle();
  }
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/vnd.bank+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
];

const options = (): fc.Parameters<unknown> => ({ numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) });

beforeAll(async () => {
  t = await createTestApp('hostile_input');
  [admin, auditor, customer, target] = await Promise.all([t.staff('admin'), t.staff('auditor'), t.customer(), t.customer()]);
  await request(t.app).put(`/api/user/admin/account/${target.userId}`).set(admin.auth).send({ savings: 100, checking: 50, number: target.accountNumber }).expect(200);
  await request(t.app)
    .put(`/api/user/admin/${customer.userId}`)
    .set(admin.auth)
    .send({ firstName: 'Ada', lastName: 'Lovelace', email: customer.email, phone: '555-0100', location: { address: '1 Analytical Way', state: 'NY' }, paymentPin: '135790' })
    .expect(200);
  await request(t.app).put(`/api/user/admin/account/${customer.userId}`).set(admin.auth).send({ savings: 500, checking: 500, number: customer.accountNumber }).expect(200);
  const beneficiary = await request(t.app).post('/api/beneficiaries').set(admin.auth).send({ name: 'Fuzz Payee', accountNumber: '987654321012' }).expect(201);
  ids.beneficiary = beneficiary.body.data._id as string;
  await request(t.app).post('/api/contacts').send({ name: 'F', email: 'f@example.com', subject: 'fuzz', message: 'x' }).expect(201);
  await t.settle();
  const contacts = await request(t.app).get('/api/contacts').set(admin.auth);
  ids.contact = (contacts.body.data as { _id: string }[])[0]!._id;
  const picture = await request(t.app).patch('/api/user/profile-picture').set(target.auth).send({ image: PNG_DATA_URL }).expect(200);
  ids.file = (picture.body.data.profilePicture.url as string).split('/').pop()!;
  const transactions = await request(t.app).get(`/api/transaction/admin/${target.userId}`).set(admin.auth);
  ids.transaction = (transactions.body.data as { _id: string }[])[0]!._id;
  await t.settle();
});

afterAll(async () => {
  await t?.close();
});

describe('hostile input on every route', () => {
  it('covers every route of the catalogue, the audit routes among them', () => {
    expect(routes.length).toBe(routeCatalogue.length);
    expect(routes.filter((route) => route.path.startsWith('/audit/')).length).toBeGreaterThan(10);
    expect(routes.filter((route) => route.body).length).toBeGreaterThan(10);
  });

  for (const route of routes) {
    const name = `${route.method.toUpperCase()} ${route.path}`;
    const hasBody = route.method !== 'get';
    const params = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);

    it(`${name}: hostile bodies, parameters, queries and headers are 4xx in the error shape and change nothing`, async () => {
      if (hasBody) {
        await fc.assert(
          fc.asyncProperty(hostileBody(route.body), async (body: Hostile) => {
            await attempt(route, { url: fill(route, realParams(route)), body: toJsonText(body) });
          }),
          options(),
        );
      }
      if (params.length > 0) {
        await fc.assert(
          fc.asyncProperty(fc.array(hostileSegment, { minLength: params.length, maxLength: params.length }), async (values) => {
            await attempt(route, { url: fill(route, (param) => values[params.indexOf(param)]!), ...(hasBody ? { body: '{}' } : {}) });
          }),
          options(),
        );
      }
      await fc.assert(
        fc.asyncProperty(
          fc.record(
            {
              query: hostileQuery(route.query),
              authorization: fc.oneof(fc.constant(undefined), headerText, headerText.map((text) => `Bearer ${text}`)),
              idempotencyKey: headerText,
              position: headerText,
              contentType: fc.constantFrom(...CONTENT_TYPES),
            },
            { requiredKeys: ['query'] },
          ),
          async ({ query, authorization, idempotencyKey, position, contentType }) => {
            const headers: Record<string, string> = {};
            if (authorization !== undefined) headers.Authorization = authorization;
            if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
            if (position !== undefined) headers['X-Consistent-Position'] = position;
            if (contentType !== undefined && hasBody) headers['Content-Type'] = contentType;
            const url = `${fill(route, realParams(route))}${query ? `?${query}` : ''}`;
            await attempt(route, { url, headers, ...(hasBody ? { body: '{}' } : {}) });
          },
        ),
        options(),
      );
    });
  }
});

describe('tokens an attacker would try', () => {
  const claims = (userId: string, extra: object = {}) => ({ role: 'customer', sub: userId, jti: randomUUID(), ...extra });

  async function refused(token: string, what: string): Promise<void> {
    const before = await bankState();
    for (const [method, path] of [
      ['get', '/api/user/me'],
      ['post', '/api/cards/requests'],
      ['get', '/api/user/admin'],
    ] as const) {
      const res = await request(t.app)[method](path).set('Authorization', `Bearer ${token}`).send({});
      expect(res.status, `${what}: ${method} ${path}`).toBe(401);
      expect(res.body, `${what}: ${method} ${path}`).toEqual({ message: INVALID_TOKEN_MESSAGE });
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    expect(await bankState(), what).toEqual(before);
  }

  it('refuses alg none, a wrong key, an unknown kid, an edited payload and an expired token', async () => {
    const { id, key } = t.deps.keys.jwt.current;
    const victim = await t.customer();
    await refused(jwt.sign(claims(victim.userId), '', { algorithm: 'none', keyid: id, expiresIn: 600 }), 'alg none');
    await refused(jwt.sign(claims(victim.userId), 'not-the-bank-key-0123456789abcdef', { algorithm: 'HS256', keyid: id, expiresIn: 600 }), 'wrong key');
    await refused(jwt.sign(claims(victim.userId), 'development-only-secret-change-me', { algorithm: 'HS256', expiresIn: 600 }), 'the old development constant');
    await refused(jwt.sign(claims(victim.userId), key, { algorithm: 'HS256', keyid: 'retired', expiresIn: 600 }), 'unknown kid');
    await refused(jwt.sign(claims(victim.userId), key, { algorithm: 'HS512', keyid: id, expiresIn: 600 }), 'another algorithm');
    await refused(jwt.sign(claims(victim.userId, { exp: Math.floor(Date.now() / 1000) - 5 }), key, { algorithm: 'HS256', keyid: id }), 'expired');
    await refused(jwt.sign(claims(randomUUID()), key, { algorithm: 'HS256', keyid: id, expiresIn: 600 }), 'a user that does not exist');
    const [header, , signature] = victim.token.split('.');
    const edited = Buffer.from(JSON.stringify({ ...(jwt.decode(victim.token) as object), sub: admin.userId, role: 'admin' })).toString('base64url');
    await refused(`${header}.${edited}.${signature}`, 'edited payload');
  });

  it("refuses a signed-out token, and a closed customer's token", async () => {
    const signedOut = await t.customer();
    await request(t.app).post('/api/auth/signout').set(signedOut.auth).expect(200);
    await refused(signedOut.token, 'revoked');
    const closed = await t.customer();
    await request(t.app).delete(`/api/user/admin/${closed.userId}`).set(admin.auth).expect(200);
    await t.settle();
    await refused(closed.token, 'closed user');
  });

  it('reads the role from the bank, not from the token: a customer token claiming admin stays a customer', async () => {
    const { id, key } = t.deps.keys.jwt.current;
    // A live session of the customer's own, so that only the role claim is forged.
    const sid = (jwt.decode((await t.newSession(customer, 'customer')).token) as { sid: string }).sid;
    const forged = jwt.sign(claims(customer.userId, { role: 'admin', sid }), key, { algorithm: 'HS256', keyid: id, expiresIn: 600 });
    const res = await request(t.app).get('/api/user/admin').set('Authorization', `Bearer ${forged}`);
    expect(res.status).toBe(403);
  });
});
