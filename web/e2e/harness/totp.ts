import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';

/**
 * Codes of an enrolled TOTP secret, as a person's authenticator app shows them. The server accepts each 30-second
 * step once, and only a step newer than the last it accepted (the step just before the current one, the current one and
 * the one after), so the step last used for a secret is kept in a
 * file (test files run one after another, in different processes); when the next free step is not yet accepted,
 * this waits for it, as a person would wait for the next code.
 */
const PERIOD_MS = 30_000;
const ledgerDir = path.join(os.tmpdir(), 'bank-e2e-totp');

function ledgerFile(secret: string): string {
  return path.join(ledgerDir, createHash('sha256').update(secret).digest('hex').slice(0, 24));
}

function lastUsedStep(secret: string): number | undefined {
  try {
    return Number(readFileSync(ledgerFile(secret), 'utf8'));
  } catch {
    return undefined;
  }
}

/** The code of `secret` at a time (what the app shows then). */
export function totpCodeAt(secret: string, time: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: time });
}

/**
 * How much of the current step must remain to use the code of the step before it: the server takes a code of the
 * previous step only while the current one lasts.
 */
const PREVIOUS_STEP_MARGIN_MS = 12_000;

/** A code of `secret` the server has not accepted yet (waits up to one step for it). */
export async function freshTotpCode(secret: string): Promise<string> {
  const current = () => Math.floor(Date.now() / PERIOD_MS);
  const last = lastUsedStep(secret);
  // The oldest step the server still takes (±1), then the next ones: three codes before a wait instead of two.
  const remaining = PERIOD_MS - (Date.now() % PERIOD_MS);
  let step = remaining >= PREVIOUS_STEP_MARGIN_MS ? current() - 1 : current();
  if (last !== undefined && last >= step) step = last + 1;
  // The server takes the next step too (±1); further ahead, wait until it is the next one.
  if (step > current() + 1) await new Promise((resolve) => setTimeout(resolve, (step - 1) * PERIOD_MS - Date.now() + 200));
  mkdirSync(ledgerDir, { recursive: true });
  writeFileSync(ledgerFile(secret), String(step));
  return totpCodeAt(secret, step * PERIOD_MS);
}
