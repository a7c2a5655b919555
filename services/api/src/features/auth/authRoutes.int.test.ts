import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, uniqueEmail, type TestApp } from '../../testing/testApp';
import { userShape } from '../users/userShape';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp('auth_routes');
});

afterAll(async () => {
  await t?.close();
});

const signup = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Grace',
  lastName: 'Hopper',
  email: uniqueEmail('grace'),
  phone: '555-0199',
  password: TEST_PASSWORD,
  address: '1 Harbor Rd',
  state: 'VA',
  ...overrides,
});

describe('POST /auth/signup', () => {
  it('creates a customer: 201, status awaiting, balances 0, a fresh 10-digit number, X-Event-Position', async () => {
    const body = signup({ email: 'New.Customer@Example.COM' });
    const res = await request(t.app).post('/api/auth/signup').send(body);
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Account created successfully');
    const user = userShape.parse(res.body.data);
    expect(user).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'new.customer@example.com',
      phone: '555-0199',
      location: { address: '1 Harbor Rd', state: 'VA' },
      account: { savings: 0, checking: 0 },
      verificationStatus: 'awaiting',
      verification: null,
      profilePicture: null,
      isBlocked: false,
      isDisabled: false,
      hasPaymentPin: false,
      isAdmin: false,
      role: 'customer',
    });
    expect(user.account.number).toMatch(/^\d{10}$/);
    expect(res.headers['x-event-position']).toMatch(/^\d+$/);
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash|\$2[aby]\$/i);
  });

  it('gives every customer a different account number', async () => {
    const a = await request(t.app).post('/api/auth/signup').send(signup()).expect(201);
    const b = await request(t.app).post('/api/auth/signup').send(signup()).expect(201);
    expect(a.body.data.account.number).not.toBe(b.body.data.account.number);
  });

  it("answers 409 'Email already registered' for a taken e-mail, whatever its case", async () => {
    const email = uniqueEmail('taken');
    await request(t.app).post('/api/auth/signup').send(signup({ email })).expect(201);
    const res = await request(t.app).post('/api/auth/signup').send(signup({ email: `  ${email.toUpperCase()} ` }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Email already registered' });
  });

  it('answers 400 with the issues for missing fields and a short password', async () => {
    const res = await request(t.app).post('/api/auth/signup').send({ ...signup(), firstName: '', password: '12345' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'firstName', message: 'First name is required' },
        { path: 'password', message: 'Password must be at least 6 characters' },
      ]),
    );
  });
});

describe('POST /auth/signin', () => {
  it('answers 200 {message, token, user} with an HS256 token carrying the user id, role and jti', async () => {
    const body = signup();
    await request(t.app).post('/api/auth/signup').send(body).expect(201);
    const res = await request(t.app).post('/api/auth/signin').send({ email: body.email.toUpperCase(), password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Signed in successfully');
    const user = userShape.parse(res.body.user);
    const [header, payload] = (res.body.token as string).split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);
    expect(header).toMatchObject({ alg: 'HS256' });
    expect(payload).toMatchObject({ sub: user._id, role: 'customer', jti: expect.any(String) });
    expect(Number(payload?.exp) - Number(payload?.iat)).toBe(t.deps.config.JWT_TTL_SECONDS);
  });

  it("answers the same 401 'Invalid email or password' for a wrong password and an unknown e-mail", async () => {
    const customer = await t.customer();
    const wrong = await request(t.app).post('/api/auth/signin').send({ email: customer.email, password: 'not-the-password' });
    const unknown = await request(t.app).post('/api/auth/signin').send({ email: uniqueEmail('nobody'), password: TEST_PASSWORD });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid email or password' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('answers 400 when e-mail or password is missing', async () => {
    const res = await request(t.app).post('/api/auth/signin').send({});
    expect(res.status).toBe(400);
    expect((res.body.errors as { path: string }[]).map((issue) => issue.path)).toEqual(['email', 'password']);
  });

  it('is not stopped by a stale token the browser still sends', async () => {
    const customer = await t.customer();
    const res = await request(t.app).post('/api/auth/signin').set('Authorization', 'Bearer stale.token.here').send({ email: customer.email, password: TEST_PASSWORD });
    expect(res.status).toBe(200);
  });
});

describe('tokens', () => {
  it('GET /auth/user and GET /user/me answer {data: user} for the token holder', async () => {
    const customer = await t.customer({ firstName: 'Alan' });
    for (const path of ['/api/auth/user', '/api/user/me']) {
      const res = await request(t.app).get(path).set(customer.auth);
      expect(res.status).toBe(200);
      expect(userShape.parse(res.body.data)).toMatchObject({ _id: customer.userId, firstName: 'Alan' });
    }
  });

  it('answers 401 without a token, with a malformed, wrongly signed or expired one', async () => {
    const customer = await t.customer();
    const [header, payload] = customer.token.split('.');
    const forged = `${header}.${payload}.${Buffer.from('forged-signature').toString('base64url')}`;
    const jwt = await import('jsonwebtoken');
    const expired = jwt.default.sign({ role: 'customer', exp: Math.floor(Date.now() / 1000) - 10 }, t.deps.keys.jwt.current.key, {
      algorithm: 'HS256',
      keyid: t.deps.keys.jwt.current.id,
      subject: customer.userId,
      jwtid: 'x',
    });
    const none = jwt.default.sign({ role: 'customer' }, '', { algorithm: 'none', subject: customer.userId, jwtid: 'y' });
    const cases: [string | undefined, string][] = [
      [undefined, 'Please sign in to continue'],
      ['Bearer not-a-token', 'Your session is invalid or has expired, please sign in again'],
      [`Bearer ${forged}`, 'Your session is invalid or has expired, please sign in again'],
      [`Bearer ${expired}`, 'Your session is invalid or has expired, please sign in again'],
      [`Bearer ${none}`, 'Your session is invalid or has expired, please sign in again'],
      [`Basic ${customer.token}`, 'Your session is invalid or has expired, please sign in again'],
    ];
    for (const [authorization, message] of cases) {
      const req = request(t.app).get('/api/user/me');
      const res = authorization ? await req.set('Authorization', authorization) : await req;
      expect(res.status, authorization).toBe(401);
      expect(res.body).toEqual({ message });
    }
  });

  it('POST /auth/signout revokes the token (its session, durably in PostgreSQL); other tokens keep working', async () => {
    const customer = await t.customer();
    const second = await t.signIn(customer.email, TEST_PASSWORD);
    const res = await request(t.app).post('/api/auth/signout').set(customer.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Signed out successfully' });
    expect((await request(t.app).get('/api/user/me').set(customer.auth)).status).toBe(401);
    expect((await request(t.app).get('/api/user/me').set(second.auth)).status).toBe(200);
    const { rows } = await t.deps.pool.query<{ revoked_at: Date | null; revoked_reason: string | null; expires_at: Date }>(
      'SELECT revoked_at, revoked_reason, expires_at FROM auth.sessions WHERE user_id = $1 ORDER BY created_at',
      [customer.userId],
    );
    expect(rows.map((row) => row.revoked_reason)).toEqual(['signout', null]);
    const lifetime = (rows[0]!.expires_at.getTime() - Date.now()) / 1000;
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(t.deps.config.JWT_TTL_SECONDS);
    // Nothing of it is only in Redis: with every key of this app gone (a Redis restart or flush), it stays revoked.
    const keys = await t.deps.redis.keys(`${t.deps.config.REDIS_PREFIX}*`);
    if (keys.length > 0) await t.deps.redis.del(...keys);
    expect((await request(t.app).get('/api/user/me').set(customer.auth)).status).toBe(401);
    expect((await request(t.app).get('/api/user/me').set(second.auth)).status).toBe(200);
  });

  it('refuses a well-signed token that names no session (as tokens issued before sessions existed)', async () => {
    const customer = await t.customer();
    const jwt = await import('jsonwebtoken');
    const { id, key } = t.deps.keys.jwt.current;
    const sessionless = jwt.default.sign({ role: 'customer' }, key, { algorithm: 'HS256', keyid: id, subject: customer.userId, jwtid: 'z', expiresIn: 60 });
    const res = await request(t.app).get('/api/user/me').set('Authorization', `Bearer ${sessionless}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Your session is invalid or has expired, please sign in again' });
  });
});

describe('POST /auth/change-password', () => {
  it("answers 422 'Old password is incorrect' and keeps the password", async () => {
    const customer = await t.customer();
    const res = await request(t.app).post('/api/auth/change-password').set(customer.auth).send({ oldPassword: 'wrong-one', newPassword: 'new-secret' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'Old password is incorrect' });
    await t.signIn(customer.email, TEST_PASSWORD);
  });

  it('changes the password: the new one signs in, the old one no longer does', async () => {
    const customer = await t.customer();
    const res = await request(t.app).post('/api/auth/change-password').set(customer.auth).send({ oldPassword: TEST_PASSWORD, newPassword: 'brand-new-secret' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Password changed successfully' });
    expect(res.headers['x-event-position']).toMatch(/^\d+$/);
    await t.signIn(customer.email, 'brand-new-secret');
    expect((await request(t.app).post('/api/auth/signin').send({ email: customer.email, password: TEST_PASSWORD })).status).toBe(401);
  });

  it('answers 400 for a new password under 6 characters', async () => {
    const customer = await t.customer();
    const res = await request(t.app).post('/api/auth/change-password').set(customer.auth).send({ oldPassword: TEST_PASSWORD, newPassword: '123' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'newPassword', message: 'New password must be at least 6 characters' }]);
  });

  it('stores passwords as bcrypt hashes of cost 10 or more', async () => {
    const customer = await t.customer();
    const { rows } = await t.deps.pool.query<{ password_hash: string }>('SELECT password_hash FROM rm.users WHERE id = $1', [customer.userId]);
    const match = /^\$2[aby]\$(\d\d)\$/.exec(rows[0]?.password_hash ?? '');
    expect(Number(match?.[1])).toBeGreaterThanOrEqual(10);
  });
});
