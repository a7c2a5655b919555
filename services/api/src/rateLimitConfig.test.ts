import { ConfigError } from '@bank/platform';
import { describe, expect, it } from 'vitest';
import { parseRateLimitConfig } from './rateLimitConfig';

describe('parseRateLimitConfig', () => {
  it('has the contract defaults', () => {
    expect(parseRateLimitConfig({})).toEqual({
      signIn: { limit: 10, windowMs: 15 * 60_000 },
      signUp: { limit: 20, windowMs: 60 * 60_000 },
      contact: { limit: 10, windowMs: 60 * 60_000 },
      accountLookup: { limit: 30, windowMs: 60_000 },
      paymentPin: { limit: 5, windowMs: 15 * 60_000 },
      signInPerAddress: { limit: 100, windowMs: 15 * 60_000 },
      secondFactor: { limit: 5, windowMs: 15 * 60_000 },
      secondFactorPerAddress: { limit: 20, windowMs: 15 * 60_000 },
      passwordCheck: { limit: 5, windowMs: 15 * 60_000 },
    });
  });

  it('reads each limit from the environment', () => {
    const config = parseRateLimitConfig({ RATE_LIMIT_PIN_FAILURES: '3', RATE_LIMIT_PIN_WINDOW_MIN: '0.5' });
    expect(config.paymentPin).toEqual({ limit: 3, windowMs: 30_000 });
  });

  it('names a bad variable', () => {
    expect(() => parseRateLimitConfig({ RATE_LIMIT_LOOKUPS: 'many' })).toThrow(ConfigError);
    expect(() => parseRateLimitConfig({ RATE_LIMIT_LOOKUPS: '0' })).toThrow(/RATE_LIMIT_LOOKUPS/);
  });
});
