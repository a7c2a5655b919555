import { startMail, type RunningMail } from '@bank/mail';
import { startSmtpTestServer, type SmtpTestServer } from '@bank/mail/testing';
import { parseMailSettings } from '@bank/mail';
import { createLogger } from '@bank/platform';
import { waitUntil } from '@bank/testkit';
import type { ParsedMail } from 'mailparser';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type SignedIn, type TestApp } from '../../testing/testApp';

/**
 * E-mail through the API with the worker's mail reactor and sender, and a real SMTP server in this process: the
 * links in the messages received are followed as a customer would (API.md "E-mail").
 */
let t: TestApp;
let smtp: SmtpTestServer;
let mail: RunningMail;
const FORGOT = 'If an account exists for this e-mail, we have sent a link to reset your password';

const to = (message: ParsedMail) => (Array.isArray(message.to) ? message.to[0] : message.to)?.value[0]?.address;
const received = (email: string, subject: RegExp) => smtp.received.filter((m) => to(m) === email.toLowerCase() && subject.test(m.subject ?? ''));

async function nextMessage(email: string, subject: RegExp, count = 1): Promise<ParsedMail> {
  await waitUntil(async () => received(email, subject).length >= count, { what: `message ${String(subject)} to ${email}`, timeoutMs: 20_000 });
  return received(email, subject)[count - 1]!;
}

function tokenIn(message: ParsedMail, path: string): string {
  const match = new RegExp(`https://bank\\.test${path}\\?token=([A-Za-z0-9_-]+)`).exec(message.text ?? '');
  if (!match) throw new Error(`No ${path} link in: ${message.text}`);
  return match[1]!;
}

async function withSecondFactor(customer: SignedIn): Promise<SignedIn & { secret: string; recoveryCodes: string[] }> {
  const setup = await request(t.app).post('/api/auth/second-factor/setup').set(customer.auth).send({});
  const confirm = await request(t.app).post('/api/auth/second-factor/confirm').set(customer.auth).send({ code: await t.freshCode(setup.body.secret as string) });
  expect(confirm.status, JSON.stringify(confirm.body)).toBe(200);
  return { ...customer, secret: setup.body.secret as string, recoveryCodes: confirm.body.recoveryCodes as string[] };
}

beforeAll(async () => {
  t = await createTestApp('mail_api');
  smtp = await startSmtpTestServer();
  mail = await startMail({
    store: t.store,
    commands: t.deps.commands,
    pool: t.deps.pool,
    logger: createLogger('mail-api-test', 'silent'),
    settings: parseMailSettings({ SMTP_URL: smtp.url, APP_ORIGIN: 'https://bank.test', MAIL_BACKOFF_MS: '100' }),
  });
  await mail.reactor.ready;
});

afterAll(async () => {
  await mail?.stop();
  await smtp?.stop();
  await t?.close();
});

describe('e-mail through the API', () => {
  it('GET /bank: the bank every message names', async () => {
    const res = await request(t.app).get('/api/bank');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { name: 'Summit Bank', routingNumber: '102000021', address: '1200 Summit Plaza, Denver, CO 80202, United States', phone: '+1 (800) 555-0142', email: 'care@summitbank.example' },
    });
  });

  it('sign-up sends a confirmation link: emailVerified false, then true once the link is opened; a link works once', async () => {
    const email = uniqueEmail('verify');
    const signUp = await request(t.app).post('/api/auth/signup').send({ firstName: 'Vera', lastName: 'Fy', email, phone: '555-0100', password: 'secret123', address: '1 Main St', state: 'NY' });
    expect(signUp.status).toBe(201);
    expect(signUp.body.data.emailVerified).toBe(false);
    const customer = await t.signIn(email, 'secret123');
    expect((await request(t.app).get('/api/auth/user').set(customer.auth)).body.data.emailVerified).toBe(false);
    const token = tokenIn(await nextMessage(email, /Confirm your e-mail/), '/verify-email');
    expect(await request(t.app).post('/api/auth/verify-email').send({ token: 'not-a-token' })).toMatchObject({ status: 400, body: { message: 'Invalid or expired link' } });
    expect(await request(t.app).post('/api/auth/verify-email').send({ token })).toMatchObject({ status: 200, body: { message: 'E-mail address confirmed' } });
    expect(await request(t.app).post('/api/auth/verify-email').send({ token })).toMatchObject({ status: 400, body: { message: 'Invalid or expired link' } });
    expect((await request(t.app).get('/api/user/me').set(customer.auth)).body.data.emailVerified).toBe(true);
    expect(await request(t.app).post('/api/user/verify-email').set(customer.auth)).toMatchObject({ status: 200, body: { message: 'Your e-mail address is already confirmed' } });
  });

  it('"Send again": a new link, 202; the first link still works', async () => {
    const customer = await t.customer();
    const first = tokenIn(await nextMessage(customer.email, /Confirm your e-mail/), '/verify-email');
    expect(await request(t.app).post('/api/user/verify-email').set(customer.auth)).toMatchObject({ status: 202, body: { message: 'We have sent a new link to your e-mail address' } });
    const second = tokenIn(await nextMessage(customer.email, /Confirm your e-mail/, 2), '/verify-email');
    expect(second).not.toBe(first);
    expect((await request(t.app).post('/api/auth/verify-email').send({ token: first })).status).toBe(200);
    expect((await request(t.app).post('/api/user/verify-email')).status).toBe(401);
  });

  it('a new address in the profile: a link to it, a notice to the old one, and emailVerified false until it is confirmed', async () => {
    const customer = await t.customer();
    const verified = tokenIn(await nextMessage(customer.email, /Confirm your e-mail/), '/verify-email');
    expect((await request(t.app).post('/api/auth/verify-email').send({ token: verified })).status).toBe(200);
    const newEmail = uniqueEmail('moved');
    const change = await request(t.app).patch('/api/user/profile').set(customer.auth).send({ email: newEmail, phoneNumber: '555-0100', address: '1 Analytical Way', state: 'NY' });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    expect((await nextMessage(customer.email, /e-mail address was changed/)).text).toContain(`was changed to ${newEmail}`);
    const token = tokenIn(await nextMessage(newEmail, /Confirm your e-mail/), '/verify-email');
    expect((await request(t.app).get('/api/auth/user').set(customer.auth)).body.data.emailVerified).toBe(false);
    expect((await request(t.app).post('/api/auth/verify-email').send({ token })).status).toBe(200);
    expect((await request(t.app).get('/api/auth/user').set(customer.auth)).body.data.emailVerified).toBe(true);
  });

  it('forgot and reset: the same answer for any address; a weak password leaves the link usable; success ends the sessions, sends a notice, and the link works once', async () => {
    const customer = await t.customer();
    const unknown = await request(t.app).post('/api/auth/forgot-password').send({ email: uniqueEmail('nobody') });
    const known = await request(t.app).post('/api/auth/forgot-password').send({ email: customer.email.toUpperCase() });
    expect([unknown.status, unknown.body]).toEqual([202, { message: FORGOT }]);
    expect([known.status, known.body]).toEqual([202, { message: FORGOT }]);
    const message = await nextMessage(customer.email, /Reset your/);
    expect(message.messageId).toMatch(/^<passwordReset\.[0-9a-f-]{36}@summitbank\.example>$/);
    expect(message.html).toContain('https://bank.test/reset-password?token=');
    const token = tokenIn(message, '/reset-password');
    const weak = await request(t.app).post('/api/auth/reset-password').send({ token, newPassword: '123' });
    expect(weak.status).toBe(400);
    expect(await request(t.app).post('/api/auth/reset-password').send({ token: 'x'.repeat(43), newPassword: 'new-secret-1' })).toMatchObject({ status: 400, body: { message: 'Invalid or expired link' } });
    const reset = await request(t.app).post('/api/auth/reset-password').send({ token, newPassword: 'new-secret-1' });
    expect(reset).toMatchObject({ status: 200, body: { message: 'Password reset successfully' } });
    // A command: X-Event-Position of the PasswordChanged it appended.
    const changed = (await t.store.readAll({ limit: 100_000 })).filter((event) => event.type === 'PasswordChanged').at(-1)!;
    expect(reset.headers['x-event-position']).toBe(t.store.positionToken(changed.position));
    expect((await request(t.app).get('/api/auth/user').set(customer.auth)).status).toBe(401);
    expect(await request(t.app).post('/api/auth/reset-password').send({ token, newPassword: 'new-secret-2' })).toMatchObject({ status: 400, body: { message: 'Invalid or expired link' } });
    expect((await request(t.app).post('/api/auth/signin').send({ email: customer.email, password: 'new-secret-1' })).status).toBe(200);
    const notice = await nextMessage(customer.email, /password was changed/);
    expect(notice.text).toContain('reset with a link sent to this address');
    for (const part of [notice.text, message.text]) expect(part).not.toContain('new-secret-1');
  });

  it('with a second factor: a code or a recovery code is required (401, the link still usable); the fifth wrong code ends the link', async () => {
    const customer = await withSecondFactor(await t.customer());
    await nextMessage(customer.email, /Two-step sign-in turned on/);
    await request(t.app).post('/api/auth/forgot-password').send({ email: customer.email });
    const token = tokenIn(await nextMessage(customer.email, /Reset your/), '/reset-password');
    expect(await request(t.app).post('/api/auth/reset-password').send({ token, newPassword: 'new-secret-1' })).toMatchObject({ status: 401, body: { message: 'Invalid code' } });
    expect(await request(t.app).post('/api/auth/reset-password').send({ token, newPassword: 'new-secret-1', code: '000000' })).toMatchObject({ status: 401, body: { message: 'Invalid code' } });
    const ok = await request(t.app).post('/api/auth/reset-password').send({ token, newPassword: 'new-secret-1', recoveryCode: customer.recoveryCodes[0] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);

    await request(t.app).post('/api/auth/forgot-password').send({ email: customer.email });
    const second = tokenIn(await nextMessage(customer.email, /Reset your/, 2), '/reset-password');
    for (let i = 0; i < 5; i += 1) expect((await request(t.app).post('/api/auth/reset-password').send({ token: second, newPassword: 'new-secret-2', code: '000000' })).status).toBe(401);
    const after = await request(t.app).post('/api/auth/reset-password').send({ token: second, newPassword: 'new-secret-2', code: await t.freshCode(customer.secret) });
    expect(after).toMatchObject({ status: 400, body: { message: 'Invalid or expired link' } });
  });

  it('wrong codes sent at once are each counted before they are compared: five are compared, the link ends', async () => {
    const customer = await withSecondFactor(await t.customer());
    await request(t.app).post('/api/auth/forgot-password').send({ email: customer.email });
    const token = tokenIn(await nextMessage(customer.email, /Reset your/), '/reset-password');
    const guesses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => request(t.app).post('/api/auth/reset-password').send({ token, newPassword: 'new-secret-1', code: String(100_000 + i) })),
    );
    const statuses = guesses.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 400)).toHaveLength(15);
    const right = await request(t.app).post('/api/auth/reset-password').send({ token, newPassword: 'new-secret-1', code: await t.freshCode(customer.secret) });
    expect(right).toMatchObject({ status: 400, body: { message: 'Invalid or expired link' } });
  });

  it('at most 3 reset messages an hour to one address, silently', async () => {
    const customer = await t.customer();
    for (let i = 0; i < 4; i += 1) expect((await request(t.app).post('/api/auth/forgot-password').send({ email: customer.email })).status).toBe(202);
    await nextMessage(customer.email, /Reset your/, 3);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(received(customer.email, /Reset your/)).toHaveLength(3);
  });

  it('a sign-in from a new device sends a notice; the notification settings list every kind, refuse to turn security notices off', async () => {
    const customer = await t.customer();
    const signIn = await request(t.app).post('/api/auth/signin').set('User-Agent', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile Safari/604.1').send({ email: customer.email, password: customer.password });
    expect(signIn.status).toBe(200);
    expect((await nextMessage(customer.email, /New sign-in/)).text).toMatch(/signed in to your online banking from/);

    const list = await request(t.app).get('/api/user/notifications').set(customer.auth);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      { kind: 'moneyReceived', enabled: true, locked: false },
      { kind: 'transferReturned', enabled: true, locked: false },
      { kind: 'standingOrderFailed', enabled: true, locked: false },
      { kind: 'interestPaid', enabled: true, locked: false },
      { kind: 'statementReady', enabled: true, locked: false },
      { kind: 'newDevice', enabled: true, locked: true },
      { kind: 'passwordChanged', enabled: true, locked: true },
      { kind: 'secondFactorChanged', enabled: true, locked: true },
    ]);
    const off = await request(t.app).put('/api/user/notifications').set(customer.auth).send({ moneyReceived: false, passwordChanged: true });
    expect(off.status).toBe(200);
    expect(off.body.data[0]).toEqual({ kind: 'moneyReceived', enabled: false, locked: false });
    expect(await request(t.app).put('/api/user/notifications').set(customer.auth).send({ newDevice: false })).toMatchObject({ status: 422, body: { message: 'Security notices cannot be turned off' } });
    expect((await request(t.app).put('/api/user/notifications').set(customer.auth).send({ carrierPigeon: true })).status).toBe(400);
    expect((await request(t.app).put('/api/user/notifications').set(customer.auth).send({ moneyReceived: 'no' })).status).toBe(400);
    expect((await request(t.app).get('/api/user/notifications').set(customer.auth)).body.data[0].enabled).toBe(false);
  });

  it('more than 20 forgot-password requests a minute from one client: 429 with Retry-After, whatever the addresses', async () => {
    const answers = [];
    for (let i = 0; i < 21; i += 1) answers.push(await request(t.app).post('/api/auth/forgot-password').send({ email: uniqueEmail('flood') }));
    const refused = answers.find((res) => res.status === 429);
    expect(refused).toBeDefined();
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
  });
});
