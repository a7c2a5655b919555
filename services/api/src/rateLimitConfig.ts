import { z } from 'zod';
import { ConfigError } from '@bank/platform';

/** One limit: at most `limit` counted requests per key in a sliding `windowMs`. */
export interface RateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

export interface RateLimitConfig {
  /** Failed sign-ins per e-mail address. */
  readonly signIn: RateLimit;
  /** Sign-ups per client address. */
  readonly signUp: RateLimit;
  /** Contact messages per client address. */
  readonly contact: RateLimit;
  /** Account-number look-ups (GET /beneficiaries?accountNumber) per user. */
  readonly accountLookup: RateLimit;
  /** Wrong payment pins per user. */
  readonly paymentPin: RateLimit;
  /** Failed sign-ins per client address, whatever the e-mail (password spraying). */
  readonly signInPerAddress: RateLimit;
  /** Wrong second-factor codes (and recovery codes) per user. */
  readonly secondFactor: RateLimit;
  /** Wrong second-factor codes per client address. */
  readonly secondFactorPerAddress: RateLimit;
  /** Wrong current passwords per user (change-password, turning the second factor off). */
  readonly passwordCheck: RateLimit;
}

const MINUTE = 60_000;
const count = z.coerce.number().int().min(1).max(1_000_000);
const minutes = z.coerce.number().positive().max(7 * 24 * 60);

/**
 * The API's own settings on top of @bank/platform's Config (which stays the lead's): every variable is optional.
 *   RATE_LIMIT_SIGNIN_FAILURES / RATE_LIMIT_SIGNIN_WINDOW_MIN      10 per e-mail per 15 min
 *   RATE_LIMIT_SIGNUPS / RATE_LIMIT_SIGNUP_WINDOW_MIN              20 per client address per 60 min
 *   RATE_LIMIT_CONTACTS / RATE_LIMIT_CONTACT_WINDOW_MIN            10 per client address per 60 min
 *   RATE_LIMIT_LOOKUPS / RATE_LIMIT_LOOKUP_WINDOW_MIN              30 per user per 1 min
 *   RATE_LIMIT_PIN_FAILURES / RATE_LIMIT_PIN_WINDOW_MIN            5 per user per 15 min
 *   RATE_LIMIT_SIGNIN_ADDRESS_FAILURES / …_WINDOW_MIN             100 per client address per 15 min (one address
 *     may be an office's or a mobile carrier's, shared by many customers; 100 still stops password spraying)
 *   RATE_LIMIT_SECOND_FACTOR_FAILURES / …_WINDOW_MIN               5 per user per 15 min
 *   RATE_LIMIT_SECOND_FACTOR_ADDRESS_FAILURES / …_WINDOW_MIN      20 per client address per 15 min
 *   RATE_LIMIT_PASSWORD_FAILURES / …_WINDOW_MIN                    5 per user per 15 min
 * The failure limits (sign-in, second factor, password, pin) take an attempt BEFORE the check and give it back when
 * the check passes, so a burst of parallel guesses cannot all be checked.
 */
const schema = z.object({
  RATE_LIMIT_SIGNIN_FAILURES: count.default(10),
  RATE_LIMIT_SIGNIN_WINDOW_MIN: minutes.default(15),
  RATE_LIMIT_SIGNUPS: count.default(20),
  RATE_LIMIT_SIGNUP_WINDOW_MIN: minutes.default(60),
  RATE_LIMIT_CONTACTS: count.default(10),
  RATE_LIMIT_CONTACT_WINDOW_MIN: minutes.default(60),
  RATE_LIMIT_LOOKUPS: count.default(30),
  RATE_LIMIT_LOOKUP_WINDOW_MIN: minutes.default(1),
  RATE_LIMIT_PIN_FAILURES: count.default(5),
  RATE_LIMIT_PIN_WINDOW_MIN: minutes.default(15),
  RATE_LIMIT_SIGNIN_ADDRESS_FAILURES: count.default(100),
  RATE_LIMIT_SIGNIN_ADDRESS_WINDOW_MIN: minutes.default(15),
  RATE_LIMIT_SECOND_FACTOR_FAILURES: count.default(5),
  RATE_LIMIT_SECOND_FACTOR_WINDOW_MIN: minutes.default(15),
  RATE_LIMIT_SECOND_FACTOR_ADDRESS_FAILURES: count.default(20),
  RATE_LIMIT_SECOND_FACTOR_ADDRESS_WINDOW_MIN: minutes.default(15),
  RATE_LIMIT_PASSWORD_FAILURES: count.default(5),
  RATE_LIMIT_PASSWORD_WINDOW_MIN: minutes.default(15),
});

/** Reads the rate limits from an environment; throws a ConfigError naming every bad variable. */
export function parseRateLimitConfig(env: Record<string, string | undefined>): RateLimitConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = result.data;
  const limit = (max: number, windowMinutes: number): RateLimit => ({ limit: max, windowMs: Math.round(windowMinutes * MINUTE) });
  return {
    signIn: limit(c.RATE_LIMIT_SIGNIN_FAILURES, c.RATE_LIMIT_SIGNIN_WINDOW_MIN),
    signUp: limit(c.RATE_LIMIT_SIGNUPS, c.RATE_LIMIT_SIGNUP_WINDOW_MIN),
    contact: limit(c.RATE_LIMIT_CONTACTS, c.RATE_LIMIT_CONTACT_WINDOW_MIN),
    accountLookup: limit(c.RATE_LIMIT_LOOKUPS, c.RATE_LIMIT_LOOKUP_WINDOW_MIN),
    paymentPin: limit(c.RATE_LIMIT_PIN_FAILURES, c.RATE_LIMIT_PIN_WINDOW_MIN),
    signInPerAddress: limit(c.RATE_LIMIT_SIGNIN_ADDRESS_FAILURES, c.RATE_LIMIT_SIGNIN_ADDRESS_WINDOW_MIN),
    secondFactor: limit(c.RATE_LIMIT_SECOND_FACTOR_FAILURES, c.RATE_LIMIT_SECOND_FACTOR_WINDOW_MIN),
    secondFactorPerAddress: limit(c.RATE_LIMIT_SECOND_FACTOR_ADDRESS_FAILURES, c.RATE_LIMIT_SECOND_FACTOR_ADDRESS_WINDOW_MIN),
    passwordCheck: limit(c.RATE_LIMIT_PASSWORD_FAILURES, c.RATE_LIMIT_PASSWORD_WINDOW_MIN),
  };
}
