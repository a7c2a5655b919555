import { streams } from '@bank/domain';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../../auth/sessions/sessionStore';
import { codeAt, stepAt, TOTP_PERIOD_SECONDS } from '../../auth/secondFactor/totp';
import { createTestApp, TEST_PASSWORD, type SignedIn, type SignedInWithFactor, type TestApp } from '../../testing/testApp';

/** A clock the tests can move forward (challenge expiry); codes are computed with it too. */
let shiftMs = 0;
const clock = () => new Date(Date.now() + shiftMs);
/**
 * Moves the clock to just after the start of the next TOTP step: a test that names steps relative to "now" then has
 * a whole step (30 s) before the step changes under it (a second, under load, was enough to cross one at random).
 */
const toNextStep = () => {
  const periodMs = TOTP_PERIOD_SECONDS * 1000;
  shiftMs += periodMs - (clock().getTime() % periodMs) + 50;
};

let t: TestApp;
let admin: SignedInWithFactor;

beforeAll(async () => {
  t = await createTestApp('second_factor', { now: clock, advanceClock: (ms) => (shiftMs += ms) });
  admin = await t.staff('admin');
});

afterAll(async () => {
  await t?.close();
});

interface Challenge {
  readonly message: string;
  readonly secondFactor: 'totp' | 'enrol';
  readonly challenge: string;
}

async function passwordStep(email: string, password = TEST_PASSWORD): Promise<Challenge> {
  const res = await request(t.app).post('/api/auth/signin').send({ email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).not.toHaveProperty('token');
  return res.body as Challenge;
}

/** A customer who turned the second factor on from Settings (setup, then confirm with a code). */
async function customerWithFactor(): Promise<SignedIn & { secret: string; recoveryCodes: string[] }> {
  const customer = await t.customer();
  const setup = await request(t.app).post('/api/auth/second-factor/setup').set(customer.auth).send({});
  expect(setup.status).toBe(200);
  const secret = setup.body.secret as string;
  const confirm = await request(t.app).post('/api/auth/second-factor/confirm').set(customer.auth).send({ code: await t.freshCode(secret) });
  expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
  return { ...customer, secret, recoveryCodes: confirm.body.recoveryCodes as string[] };
}

async function eventsOf(userId: string): Promise<{ type: string; data: Record<string, unknown> }[]> {
  return (await t.store.readStream(streams.customer(userId))).map((event) => ({ type: event.type, data: event.data as Record<string, unknown> }));
}

describe('a customer turning the second factor on (Settings)', () => {
  it('offers a secret with its otpauth URI and QR code, and confirms it with a code: ten recovery codes, once', async () => {
    const customer = await t.customer();
    const setup = await request(t.app).post('/api/auth/second-factor/setup').set(customer.auth).send({});
    expect(setup.status).toBe(200);
    expect(setup.headers['cache-control']).toBe('no-store');
    expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.body.otpauthUri).toMatch(new RegExp(`^otpauth://totp/Summit%20Bank:${encodeURIComponent(customer.email)}\\?`));
    expect(setup.body.otpauthUri).toContain(`secret=${setup.body.secret}`);
    expect(setup.body.qrCode).toMatch(/^data:image\/png;base64,/);

    const wrong = await request(t.app).post('/api/auth/second-factor/confirm').set(customer.auth).send({ code: '000000' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ message: 'Invalid code' });
    expect((await eventsOf(customer.userId)).map((e) => e.type)).not.toContain('SecondFactorEnrolled');

    const confirm = await request(t.app).post('/api/auth/second-factor/confirm').set(customer.auth).send({ code: await t.freshCode(setup.body.secret as string) });
    expect(confirm.status).toBe(200);
    expect(confirm.body.message).toBe('Second factor turned on');
    const codes = confirm.body.recoveryCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
    expect(confirm.headers['x-event-position']).toMatch(/^\d+$/);

    const status = await request(t.app).get('/api/auth/second-factor').set(customer.auth);
    expect(status.body.data).toMatchObject({ enabled: true, recoveryCodesLeft: 10, required: false });
    // The enrolment is an event of the customer's own stream; the secret and the codes are in it only encrypted/hashed.
    const enrolled = (await eventsOf(customer.userId)).find((e) => e.type === 'SecondFactorEnrolled');
    expect(enrolled?.data.secret).toMatchObject({ keyId: 't1', iv: expect.any(String), ciphertext: expect.any(String), tag: expect.any(String) });
    const stored = JSON.stringify(enrolled);
    expect(stored).not.toContain(setup.body.secret);
    for (const code of codes) expect(stored).not.toContain(code.replaceAll('-', ''));
    // Never returned after enrolment: a second set-up is refused.
    const again = await request(t.app).post('/api/auth/second-factor/setup').set(customer.auth).send({});
    expect(again.status).toBe(409);
  });

  it('refuses a confirmation without a set-up waiting', async () => {
    const customer = await t.customer();
    const res = await request(t.app).post('/api/auth/second-factor/confirm').set(customer.auth).send({ code: '123456' });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/Start the set-up again/);
  });
});

describe('signing in with a second factor', () => {
  it('answers a challenge instead of a token, then signs in with a code of the secret', async () => {
    const customer = await customerWithFactor();
    const step = await passwordStep(customer.email);
    expect(step).toEqual({ message: 'Second factor required', secondFactor: 'totp', challenge: expect.any(String) });
    const res = await request(t.app).post('/api/auth/second-factor').send({ challenge: step.challenge, code: await t.freshCode(customer.secret) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Signed in successfully', token: expect.any(String), user: { _id: customer.userId } });
    expect(res.body).not.toHaveProperty('recoveryCodes');
    expect((await request(t.app).get('/api/user/me').set('Authorization', `Bearer ${res.body.token}`)).status).toBe(200);
  });

  it("refuses a wrong code with 401 'Invalid code' and keeps the challenge for a second try", async () => {
    const customer = await customerWithFactor();
    const step = await passwordStep(customer.email);
    const wrong = await request(t.app).post('/api/auth/second-factor').send({ challenge: step.challenge, code: '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid code' });
    const right = await request(t.app).post('/api/auth/second-factor').send({ challenge: step.challenge, code: await t.freshCode(customer.secret) });
    expect(right.status).toBe(200);
  });

  it('accepts the codes of the step before and after (±1), not two steps away', async () => {
    const customer = await customerWithFactor();
    toNextStep();
    const now = stepAt(clock());
    const codeOf = (step: number) => codeAt(customer.secret, new Date(step * TOTP_PERIOD_SECONDS * 1000));
    const tryCode = async (code: string) => request(t.app).post('/api/auth/second-factor').send({ challenge: (await passwordStep(customer.email)).challenge, code });
    // The confirmation used an earlier step (the clock moved on since): only a later one is still unused.
    expect((await tryCode(codeOf(now - 2))).status).toBe(401);
    expect((await tryCode(codeOf(now + 2))).status).toBe(401);
    toNextStep();
    toNextStep();
    const later = stepAt(clock());
    expect(later).toBe(now + 2);
    expect((await tryCode(codeOf(later - 1))).status).toBe(200);
    expect((await tryCode(codeOf(later + 1))).status).toBe(200);
  });

  it('refuses a code already accepted (no replay), even on a new challenge and in parallel', async () => {
    const customer = await customerWithFactor();
    const code = await t.freshCode(customer.secret);
    const [a, b] = await Promise.all([passwordStep(customer.email), passwordStep(customer.email)]);
    const answers = await Promise.all([a, b].map((step) => request(t.app).post('/api/auth/second-factor').send({ challenge: step.challenge, code })));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 401]);
    const third = await passwordStep(customer.email);
    const replay = await request(t.app).post('/api/auth/second-factor').send({ challenge: third.challenge, code });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ message: 'Invalid code' });
  });

  it('uses a challenge once: after it signed in, it is refused', async () => {
    const customer = await customerWithFactor();
    const step = await passwordStep(customer.email);
    await request(t.app).post('/api/auth/second-factor').send({ challenge: step.challenge, code: await t.freshCode(customer.secret) }).expect(200);
    const reused = await request(t.app).post('/api/auth/second-factor').send({ challenge: step.challenge, code: await t.freshCode(customer.secret) });
    expect(reused.status).toBe(401);
    expect(reused.body).toEqual({ message: 'Your sign-in has expired, please sign in again' });
  });

  it('lets a challenge live 5 minutes', async () => {
    const customer = await customerWithFactor();
    const step = await passwordStep(customer.email);
    shiftMs += 5 * 60_000 + 1000;
    const expired = await request(t.app).post('/api/auth/second-factor').send({ challenge: step.challenge, code: await t.freshCode(customer.secret) });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ message: 'Your sign-in has expired, please sign in again' });
  });

  it("binds a challenge to its user: another user's code does not complete it", async () => {
    const [victim, attacker] = await Promise.all([customerWithFactor(), customerWithFactor()]);
    const step = await passwordStep(victim.email);
    const res = await request(t.app).post('/api/auth/second-factor').send({ challenge: step.challenge, code: await t.freshCode(attacker.secret) });
    expect(res.status).toBe(401);
  });

  it('answers 401 for a challenge nobody was given and 400 without a code', async () => {
    const unknown = await request(t.app).post('/api/auth/second-factor').send({ challenge: 'not-a-challenge', code: '123456' });
    expect(unknown.status).toBe(401);
    const missing = await request(t.app).post('/api/auth/second-factor').send({ challenge: 'x' });
    expect(missing.status).toBe(400);
  });
});

describe('recovery codes', () => {
  it('signs in with a recovery code once, says how many are left, and records the use in the stream', async () => {
    const customer = await customerWithFactor();
    const code = customer.recoveryCodes[3]!;
    const step = await passwordStep(customer.email);
    const res = await request(t.app).post('/api/auth/second-factor').send({ challenge: step.challenge, recoveryCode: code.toLowerCase() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Signed in successfully', token: expect.any(String), recoveryCodesLeft: 9 });
    const again = await request(t.app).post('/api/auth/second-factor').send({ challenge: (await passwordStep(customer.email)).challenge, recoveryCode: code });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ message: 'Invalid code' });
    const used = (await eventsOf(customer.userId)).filter((e) => e.type === 'RecoveryCodeUsed');
    expect(used.map((e) => e.data)).toEqual([{ index: 3, remaining: 9, occurredAt: expect.any(String) }]);
    // A command: X-Event-Position of the use.
    const [recorded] = (await t.store.readStream(streams.customer(customer.userId))).filter((event) => event.type === 'RecoveryCodeUsed');
    expect(res.headers['x-event-position']).toBe(t.store.positionToken(recorded!.position));
  });

  it("refuses another user's recovery code", async () => {
    const [customer, other] = await Promise.all([customerWithFactor(), customerWithFactor()]);
    const res = await request(t.app).post('/api/auth/second-factor').send({ challenge: (await passwordStep(customer.email)).challenge, recoveryCode: other.recoveryCodes[0] });
    expect(res.status).toBe(401);
  });
});

describe('staff and their required second factor', () => {
  it('leads a staff member without one through enrolment: challenge, secret and QR code, a code, then the token and recovery codes', async () => {
    const { email, password } = await newStaff('auditor');
    const step = await passwordStep(email, password);
    expect(step).toEqual({ message: 'Second factor enrolment required', secondFactor: 'enrol', challenge: expect.any(String) });
    const enrol = await request(t.app).post('/api/auth/second-factor/enrol').send({ challenge: step.challenge });
    expect(enrol.status).toBe(200);
    expect(enrol.body).toEqual({ secret: expect.stringMatching(/^[A-Z2-7]{32}$/), otpauthUri: expect.stringContaining('otpauth://totp/'), qrCode: expect.stringMatching(/^data:image\/png;base64,/) });
    // The same secret while the challenge lives (a reload shows the same QR code)…
    const reload = await request(t.app).post('/api/auth/second-factor/enrol').send({ challenge: step.challenge });
    expect(reload.body.secret).toBe(enrol.body.secret);
    // … and when two requests race for a fresh challenge, both show the one secret that is kept.
    const racing = await passwordStep(email, password);
    const both = await Promise.all([1, 2].map(() => request(t.app).post('/api/auth/second-factor/enrol').send({ challenge: racing.challenge })));
    expect(both[0]!.body.secret).toBe(both[1]!.body.secret);
    const wrong = await request(t.app).post('/api/auth/second-factor').send({ challenge: step.challenge, code: '000000' });
    expect(wrong.status).toBe(401);
    const done = await request(t.app).post('/api/auth/second-factor').send({ challenge: step.challenge, code: await t.freshCode(enrol.body.secret as string) });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ message: 'Signed in successfully', token: expect.any(String), user: { role: 'auditor' } });
    expect(done.body.recoveryCodes).toHaveLength(10);
    // Completing the enrolment is a command: X-Event-Position of SecondFactorEnrolled.
    const enrolled = (await t.store.readAll({ limit: 100_000 })).filter((event) => event.type === 'SecondFactorEnrolled').at(-1)!;
    expect(done.headers['x-event-position']).toBe(t.store.positionToken(enrolled.position));
    expect((await request(t.app).get('/api/audit/log').set('Authorization', `Bearer ${done.body.token}`)).status).toBe(200);
    // The next sign-in asks for a code.
    expect((await passwordStep(email, password)).secondFactor).toBe('totp');
  });

  it('answers no staff route before enrolment: the challenge is no token, and a session without the factor is refused', async () => {
    const staff = await newStaff('admin');
    const step = await passwordStep(staff.email, staff.password);
    expect((await request(t.app).get('/api/user/admin').set('Authorization', `Bearer ${step.challenge}`)).status).toBe(401);
    // A session opened without a second factor (say, while STAFF_SECOND_FACTOR was optional): staff routes refuse it.
    const { token } = await openSession(t.deps, { userId: staff.userId, role: 'admin', secondFactor: false, client: { device: 'x', userAgent: 'x', address: '127.0.0.1' } });
    const res = await request(t.app).get('/api/user/admin').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Staff must sign in with a second factor' });
  });

  it('does not let an enrolment challenge be completed with a recovery code, nor a sign-in challenge be used to enrol', async () => {
    const staff = await newStaff('auditor');
    const step = await passwordStep(staff.email, staff.password);
    const res = await request(t.app).post('/api/auth/second-factor').send({ challenge: step.challenge, recoveryCode: 'AAAA-BBBB-CCCC-DDDD' });
    expect(res.status).toBe(401);
    const customer = await customerWithFactor();
    const totpStep = await passwordStep(customer.email);
    expect((await request(t.app).post('/api/auth/second-factor/enrol').send({ challenge: totpStep.challenge })).status).toBe(401);
  });

  it('keeps staff from turning their factor off (403)', async () => {
    const res = await request(t.app).delete('/api/auth/second-factor').set(admin.auth).send({ password: admin.password, code: await t.freshCode(admin.totpSecret) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Staff must keep a second factor' });
    const status = await request(t.app).get('/api/auth/second-factor').set(admin.auth);
    expect(status.body.data).toMatchObject({ enabled: true, required: true });
  });
});

async function newStaff(role: 'admin' | 'auditor'): Promise<{ userId: string; email: string; password: string }> {
  const { createStaffUser } = await import('../../staff/createStaffUser');
  const email = `${role}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 6)}@example.com`;
  const password = 'a-long-staff-password';
  const { customer } = await createStaffUser(t.deps, { role, email, password });
  await t.settle();
  return { userId: customer.userId, email, password };
}

describe('a customer turning the second factor off', () => {
  it('needs the password and a current code; then signs in with the password alone and other sessions end', async () => {
    const customer = await customerWithFactor();
    const other = await signInFully(customer);
    const wrongPassword = await request(t.app).delete('/api/auth/second-factor').set(customer.auth).send({ password: 'wrong-password', code: await t.freshCode(customer.secret) });
    expect(wrongPassword.status).toBe(422);
    expect(wrongPassword.body).toEqual({ message: 'Password is incorrect' });
    const wrongCode = await request(t.app).delete('/api/auth/second-factor').set(customer.auth).send({ password: TEST_PASSWORD, code: '000000' });
    expect(wrongCode.status).toBe(422);
    expect(wrongCode.body).toEqual({ message: 'Invalid code' });
    const off = await request(t.app).delete('/api/auth/second-factor').set(customer.auth).send({ password: TEST_PASSWORD, code: await t.freshCode(customer.secret) });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ message: 'Second factor turned off' });
    expect((await request(t.app).get('/api/user/me').set(other.auth)).status).toBe(401);
    expect((await request(t.app).get('/api/user/me').set(customer.auth)).status).toBe(200);
    await t.signIn(customer.email, TEST_PASSWORD);
    expect((await eventsOf(customer.userId)).map((e) => e.type)).toContain('SecondFactorRemoved');
  });
});

async function signInFully(user: SignedIn & { secret: string }): Promise<SignedIn> {
  const step = await passwordStep(user.email);
  const res = await request(t.app).post('/api/auth/second-factor').send({ challenge: step.challenge, code: await t.freshCode(user.secret) });
  expect(res.status).toBe(200);
  return { ...user, token: res.body.token as string, auth: { Authorization: `Bearer ${res.body.token as string}` } };
}

describe("an admin resetting someone's second factor", () => {
  it('is refused to anyone but an admin (403), and without a reason (400)', async () => {
    const customer = await customerWithFactor();
    const auditor = await t.staff('auditor');
    for (const caller of [customer, auditor]) {
      const res = await request(t.app).post(`/api/user/admin/${customer.userId}/second-factor/reset`).set(caller.auth).send({ reason: 'lost phone' });
      expect(res.status).toBe(403);
    }
    const noReason = await request(t.app).post(`/api/user/admin/${customer.userId}/second-factor/reset`).set(admin.auth).send({ reason: '  ' });
    expect(noReason.status).toBe(400);
    expect((await request(t.app).get('/api/auth/second-factor').set(customer.auth)).body.data.enabled).toBe(true);
  });

  it("removes a customer's factor with a reason, as an audited staff act; the customer's sessions end", async () => {
    const customer = await customerWithFactor();
    const res = await request(t.app).post(`/api/user/admin/${customer.userId}/second-factor/reset`).set(admin.auth).send({ reason: 'Lost phone, identity checked by a call-back' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Second factor reset', data: { enabled: false } });
    expect((await request(t.app).get('/api/user/me').set(customer.auth)).status).toBe(401);
    await t.signIn(customer.email, TEST_PASSWORD);
    const reset = (await eventsOf(customer.userId)).find((e) => e.type === 'SecondFactorReset');
    expect(reset?.data).toEqual({ adminId: admin.userId, reason: 'Lost phone, identity checked by a call-back', occurredAt: expect.any(String) });
    const status = await request(t.app).get(`/api/user/admin/${customer.userId}/second-factor`).set(admin.auth);
    expect(status.body.data).toEqual({ enabled: false, enrolledAt: null, recoveryCodesLeft: 0 });
    // Auditors see it in the staff log, with the admin and the reason.
    await t.settle();
    const log = await request(t.app).get('/api/audit/log').query({ type: 'SecondFactorReset' }).set(admin.auth);
    expect(JSON.stringify(log.body)).toContain('Lost phone, identity checked by a call-back');
  });

  it("lets only another admin reset an admin's factor; that admin then enrols again", async () => {
    const own = await request(t.app).post(`/api/user/admin/${admin.userId}/second-factor/reset`).set(admin.auth).send({ reason: 'mine' });
    expect(own.status).toBe(403);
    expect(own.body).toEqual({ message: 'Another admin must reset your second factor' });
    const colleague = await t.staff('admin');
    const res = await request(t.app).post(`/api/user/admin/${colleague.userId}/second-factor/reset`).set(admin.auth).send({ reason: 'New phone' });
    expect(res.status).toBe(200);
    expect((await request(t.app).get('/api/user/admin').set(colleague.auth)).status).toBe(401);
    expect((await passwordStep(colleague.email, colleague.password)).secondFactor).toBe('enrol');
  });

  it('answers 422 for a user without a second factor and 404 for an unknown one', async () => {
    const customer = await t.customer();
    expect((await request(t.app).post(`/api/user/admin/${customer.userId}/second-factor/reset`).set(admin.auth).send({ reason: 'x' })).status).toBe(422);
    expect((await request(t.app).post('/api/user/admin/00000000-0000-4000-8000-000000000000/second-factor/reset').set(admin.auth).send({ reason: 'x' })).status).toBe(404);
  });
});

describe('what auditors see of it', () => {
  it('every enrolment, recovery-code use and removal is in the user’s timeline, the secret masked', async () => {
    const customer = await customerWithFactor();
    await request(t.app).post('/api/auth/second-factor').send({ challenge: (await passwordStep(customer.email)).challenge, recoveryCode: customer.recoveryCodes[0] }).expect(200);
    await t.settle();
    const res = await request(t.app).get(`/api/audit/users/${customer.userId}/events`).set(admin.auth);
    const events = res.body.data as { type: string; data: Record<string, unknown>; summary: string }[];
    const enrolled = events.find((e) => e.type === 'SecondFactorEnrolled');
    expect(enrolled?.data).toMatchObject({ secret: '***', recoveryCodes: '***' });
    expect(enrolled?.summary).toMatch(/Second factor/);
    expect(events.find((e) => e.type === 'RecoveryCodeUsed')?.summary).toMatch(/9 left/);
  });
});
