import { freshTotpCode } from './totp';

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

async function post(baseUrl: string, path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${baseUrl}/api${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': 'bank-e2e-setup' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Signs a staff member in through the API the first time: the password answers an enrolment challenge, the secret
 * comes from POST /auth/second-factor/enrol, and a code of it completes the sign-in. Returns the secret and the token.
 * (The browser journey of the same, for a fresh admin, is admin/staffSecondFactor.e2e.test.ts.)
 */
export async function enrolStaff(baseUrl: string, email: string, password: string): Promise<{ secret: string; token: string }> {
  // The server creates its first admin just after it starts listening: a few tries with growing pauses.
  let first = await post(baseUrl, '/auth/signin', { email, password });
  for (const pause of [250, 500, 1000, 2000, 3000]) {
    if (first.status !== 401) break;
    await new Promise((resolve) => setTimeout(resolve, pause));
    first = await post(baseUrl, '/auth/signin', { email, password });
  }
  if (first.status !== 200 || first.body.secondFactor !== 'enrol') throw new Error(`Sign-in of ${email} did not ask for an enrolment: ${first.status} ${JSON.stringify(first.body)}`);
  const challenge = first.body.challenge as string;
  const enrol = await post(baseUrl, '/auth/second-factor/enrol', { challenge });
  if (enrol.status !== 200) throw new Error(`Enrolment of ${email} answered ${enrol.status}: ${JSON.stringify(enrol.body)}`);
  const secret = enrol.body.secret as string;
  const done = await post(baseUrl, '/auth/second-factor', { challenge, code: await freshTotpCode(secret) });
  if (done.status !== 200) throw new Error(`Second factor of ${email} answered ${done.status}: ${JSON.stringify(done.body)}`);
  return { secret, token: done.body.token as string };
}

/** Signs in a staff member who has a second factor; returns the token. */
export async function signInStaff(baseUrl: string, email: string, password: string, secret: string): Promise<string> {
  const first = await post(baseUrl, '/auth/signin', { email, password });
  if (first.status !== 200 || !first.body.challenge) throw new Error(`Sign-in of ${email} answered ${first.status}: ${JSON.stringify(first.body)}`);
  const done = await post(baseUrl, '/auth/second-factor', { challenge: first.body.challenge, code: await freshTotpCode(secret) });
  if (done.status !== 200) throw new Error(`Second factor of ${email} answered ${done.status}: ${JSON.stringify(done.body)}`);
  return done.body.token as string;
}
