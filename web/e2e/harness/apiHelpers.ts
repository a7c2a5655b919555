import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import type { SecondFactorChallenge, SignInAnswer, User } from '../../src/lib/api/types';
import { freshTotpCode } from './totp';
import './providedContext';

/** A 1 × 1 PNG (a real image, for uploads). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A fresh e-mail address nobody has registered yet. */
export function uniqueEmail(label = 'customer'): string {
  return `${label}-${randomUUID().slice(0, 8)}@bank.test`;
}

export interface NewCustomer {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  password: string;
  address: string;
  state: string;
}

export function newCustomer(overrides: Partial<NewCustomer> = {}): NewCustomer {
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: uniqueEmail(),
    phone: '+1 303 555 0101',
    password: 'secret-pass-1',
    address: '12 Market Street',
    state: 'Colorado',
    ...overrides,
  };
}

/** A JSON call to the test server's API; throws with the status and body on a non-2xx answer. */
export async function callApi<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const response = await fetch(`${inject('baseUrl')}/api${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} /api${path} answered ${response.status}: ${text}`);
  const position = response.headers.get('X-Event-Position');
  // The API waited up to 2 s for the projector before answering; X-Stale says it had not caught up by then.
  if (method !== 'GET' && position && response.headers.get('X-Stale') === 'true') await awaitProjected(position);
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * Read-your-writes for the pages a test opens next, as the web app's own client has it (apiClient.ts): a page opened
 * with a stored session carries no position of its own, so its first reads could come before the projector applied
 * the set-up's writes (a balance an admin just set, read as it was). Waits until the projector has applied the event
 * a write reported, through the API's X-Consistent-Position (each wait at most 2 s, answered X-Stale when not yet).
 */
async function awaitProjected(position: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${inject('baseUrl')}/api/bank`, { headers: { Accept: 'application/json', 'X-Consistent-Position': position } });
    await response.arrayBuffer();
    if (response.ok && response.headers.get('X-Stale') !== 'true') return;
    if (Date.now() > deadline) throw new Error(`the projector had not applied event ${position} after ${timeoutMs} ms (GET /api/bank answered ${response.status})`);
    // A wait the server cut short (an error, a token it answers stale at once) is not repeated in a tight loop.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Registers a customer through POST /api/auth/signup. */
export async function signUpCustomer(customer: NewCustomer = newCustomer()): Promise<NewCustomer> {
  await callApi('POST', '/auth/signup', customer);
  return customer;
}

/** Signs in through POST /api/auth/signin and returns the token and user. */
export function signInApi(email: string, password: string): Promise<{ token: string; user: User }> {
  return callApi('POST', '/auth/signin', { email, password });
}

/**
 * Signs in a user with a second factor through the API: the password, then a code of `totpSecret` (waiting for a
 * fresh one when needed: the server accepts each code once).
 */
export async function signInWithCodeApi(email: string, password: string, totpSecret: string): Promise<{ token: string; user: User }> {
  const first = await callApi<SignInAnswer | SecondFactorChallenge>('POST', '/auth/signin', { email, password });
  if (!('challenge' in first)) return first;
  return callApi('POST', '/auth/second-factor', { challenge: first.challenge, code: await freshTotpCode(totpSecret) });
}

/** A session of the admin (ADMIN_EMAIL) or the auditor that globalSetup signed in once (staff sign in with a second factor). */
export async function staffSession(role: 'admin' | 'auditor'): Promise<{ token: string; user: User }> {
  const token = inject(role === 'admin' ? 'adminToken' : 'auditorToken');
  const { data } = await callApi<{ data: User }>('GET', '/auth/user', undefined, token);
  return { token, user: data };
}

/**
 * Puts a session into the page's local storage (keys `token` and `user`, as the app stores them), so a journey
 * can start signed in without going through the sign-in form. Navigate afterwards.
 */
export async function storeSession(page: Page, token: string, user: User): Promise<void> {
  if (page.url() === 'about:blank') await page.goto('/');
  await page.evaluate(
    ([storedToken, storedUser]) => {
      localStorage.setItem('token', storedToken);
      localStorage.setItem('user', storedUser);
    },
    [token, JSON.stringify(user)] as const,
  );
}

/** The session the app holds in the page's local storage. */
export async function readSession(page: Page): Promise<{ token: string | null; user: User | null }> {
  const [token, user] = await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')] as const);
  return { token, user: user ? (JSON.parse(user) as User) : null };
}
