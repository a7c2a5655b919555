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
    expect(config.BANK_ROUTING_NUMBER).toBe('102000021');
  });

  it('takes a BANK_ROUTING_NUMBER only when it passes the ABA check digit', () => {
    expect(parseConfig({ BANK_ROUTING_NUMBER: ' 021000021 ' }).BANK_ROUTING_NUMBER).toBe('021000021');
    for (const bad of ['102000022', '12345678', '1020000210', 'ABCDEFGHI']) {
      expect(() => parseConfig({ BANK_ROUTING_NUMBER: bad }), bad).toThrow(/BANK_ROUTING_NUMBER: must be 9 digits that pass the ABA check digit/);
    }
  });

  it('takes an optional DATABASE_READ_URL, a postgres URL (unset: none, everything on DATABASE_URL)', () => {
    expect(parseConfig({}).DATABASE_READ_URL).toBeUndefined();
    expect(parseConfig({ DATABASE_READ_URL: 'postgres://app@replica:5001/bank' }).DATABASE_READ_URL).toBe('postgres://app@replica:5001/bank');
    expect(() => parseConfig({ DATABASE_READ_URL: 'mysql://replica/bank' })).toThrow(/DATABASE_READ_URL: must be a postgres/);
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

  it('accepts every EventStoreDB scheme the event store accepts, with or without DNS discovery', () => {
    for (const url of ['esdb://a:2113?tls=false', 'esdb+discover://a:2113', 'kurrentdb://a:2113?tls=false', 'kurrentdb+discover://a:2113']) {
      expect(parseConfig({ EVENTSTORE_URL: url }).EVENTSTORE_URL).toBe(url);
    }
    expect(() => parseConfig({ EVENTSTORE_URL: 'kurrent://a:2113' })).toThrow(/EVENTSTORE_URL/);
  });

  it('refuses tlsVerifyCert=false, which the EventStoreDB client ignores, and points to tlsCAFile', () => {
    expect(() => parseConfig({ EVENTSTORE_URL: 'esdb://a:2113?tls=true&tlsVerifyCert=false' })).toThrow(/tlsCAFile/);
    expect(() => parseConfig({ EVENTSTORE_URL: 'esdb://a:2113?TLS_VERIFY_CERT=false' })).toThrow(/tlsCAFile/);
    expect(parseConfig({ EVENTSTORE_URL: 'esdb://a:2113?tlsCAFile=/etc/bank/ca.crt' }).EVENTSTORE_URL).toBe('esdb://a:2113?tlsCAFile=/etc/bank/ca.crt');
  });

  it('has no signing secret of its own: without JWT_SECRET there is none (the API loads its keys, see apiKeys.ts)', () => {
    expect(parseConfig({}).JWT_SECRET).toBeUndefined();
    expect(parseConfig({ NODE_ENV: 'production' }).JWT_SECRET).toBeUndefined();
    expect(() => parseConfig({ JWT_SECRET: 'x'.repeat(31) })).toThrow(/JWT_SECRET: must be at least 32 characters/);
  });

  it('reads TRUST_PROXY as a number of proxies or their addresses, and refuses to trust every hop', () => {
    expect(parseConfig({}).TRUST_PROXY).toBe(false);
    expect(parseConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(parseConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(parseConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8, 192.0.2.7' }).TRUST_PROXY).toEqual(['loopback', '10.0.0.0/8', 'fd00::/8', '192.0.2.7']);
    expect(() => parseConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: 'true' would trust any client/);
    expect(() => parseConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(() => parseConfig({ TRUST_PROXY: 'proxy.example.com' })).toThrow(/TRUST_PROXY: .*proxy\.example\.com/);
    expect(() => parseConfig({ TRUST_PROXY: '11' })).toThrow(/at most 10/);
  });

  it('serves metrics only when METRICS_PORT is set, on loopback unless told otherwise', () => {
    expect(parseConfig({}).METRICS_PORT).toBeUndefined();
    expect(parseConfig({ METRICS_PORT: '9464' })).toMatchObject({ METRICS_PORT: 9464, METRICS_HOST: '127.0.0.1' });
    expect(() => parseConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });

  it('gives a stopping process 25 s by default, and refuses a deadline under a second or not a number', () => {
    expect(parseConfig({}).SHUTDOWN_TIMEOUT_MS).toBe(25_000);
    expect(parseConfig({ SHUTDOWN_TIMEOUT_MS: '5000' }).SHUTDOWN_TIMEOUT_MS).toBe(5_000);
    for (const bad of ['999', 'soon', '1500.5']) expect(() => parseConfig({ SHUTDOWN_TIMEOUT_MS: bad }), bad).toThrow(/SHUTDOWN_TIMEOUT_MS/);
  });
});
