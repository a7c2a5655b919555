import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';

describe('parseConfig', () => {
  it('applies the documented defaults', () => {
    const config = parseConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/bank');
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.REDIS_PREFIX).toBe('bank:');
    expect(config.EVENTSTORE_URL).toBeUndefined();
    expect(config.CORS_ORIGINS).toEqual([]);
  });

  it('splits CORS_ORIGINS on commas', () => {
    expect(parseConfig({ CORS_ORIGINS: 'http://a.test, http://b.test' }).CORS_ORIGINS).toEqual(['http://a.test', 'http://b.test']);
  });

  it('names the variable that is wrong', () => {
    expect(() => parseConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseConfig({ DATABASE_URL: 'mysql://x/y' })).toThrow(/DATABASE_URL/);
    expect(() => parseConfig({ EVENTSTORE_URL: 'http://localhost:2113' })).toThrow(/EVENTSTORE_URL/);
    expect(() => parseConfig({ JWT_SECRET: 'short' })).toThrow(ConfigError);
  });

  it('refuses to start in production without a JWT secret', () => {
    expect(() => parseConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET/);
  });
});
