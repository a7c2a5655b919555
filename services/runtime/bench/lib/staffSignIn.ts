import { Secret, TOTP } from 'otpauth';
import { call, expectStatus } from './bankClient';

interface SignInAnswer {
  readonly token?: string;
  readonly secondFactor?: 'enrol' | 'totp';
  readonly challenge?: string;
}

interface EnrolAnswer {
  readonly secret: string;
}

/** Secrets of the staff this process enrolled, by base URL and e-mail, for their later sign-ins. */
const enrolledSecrets = new Map<string, string>();
/** The last TOTP step used per secret: a code is accepted once, so a second sign-in in the same step waits. */
const lastStep = new Map<string, number>();

const PERIOD_MS = 30_000;

async function freshCode(secret: string): Promise<string> {
  let now = Date.now();
  const used = lastStep.get(secret);
  if (used !== undefined && Math.floor(now / PERIOD_MS) <= used) {
    await new Promise((resolve) => setTimeout(resolve, (used + 1) * PERIOD_MS - now + 50));
    now = Date.now();
  }
  lastStep.set(secret, Math.floor(now / PERIOD_MS));
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: PERIOD_MS / 1000, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: now });
}

/**
 * Signs a staff member in and returns the token, through the second factor when the bank asks for one: on the first
 * sign-in (challenge `enrol`) it enrols an authenticator the way a person would, keeps the secret, and answers with a
 * code computed from it; later sign-ins (challenge `totp`) use the kept secret.
 */
export async function signInStaff(baseUrl: string, email: string, password: string): Promise<string> {
  const answer = await expectStatus(call<SignInAnswer>(baseUrl, 'POST', '/auth/signin', { body: { email, password } }), 200, 'staff sign-in');
  if (answer.token) return answer.token;
  if (!answer.challenge || !answer.secondFactor) throw new Error(`Staff sign-in gave neither a token nor a challenge: ${JSON.stringify(answer)}`);
  const key = `${baseUrl} ${email}`;
  let secret = enrolledSecrets.get(key);
  if (answer.secondFactor === 'enrol') {
    const enrolled = await expectStatus(
      call<EnrolAnswer>(baseUrl, 'POST', '/auth/second-factor/enrol', { body: { challenge: answer.challenge } }),
      200,
      'second-factor enrolment',
    );
    secret = enrolled.secret;
    enrolledSecrets.set(key, secret);
  }
  if (!secret) throw new Error(`${email} has a second factor this process did not enrol; sign in with a fresh database`);
  const completed = await expectStatus(
    call<SignInAnswer>(baseUrl, 'POST', '/auth/second-factor', { body: { challenge: answer.challenge, code: await freshCode(secret) } }),
    200,
    'second-factor code',
  );
  if (!completed.token) throw new Error(`Second-factor sign-in gave no token: ${JSON.stringify(completed)}`);
  return completed.token;
}
