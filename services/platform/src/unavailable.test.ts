import { describe, expect, it } from 'vitest';
import { isServiceUnavailable } from './unavailable';

describe('isServiceUnavailable', () => {
  it('is true for a lost or refused connection and a server shutting down', () => {
    expect(isServiceUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isServiceUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isServiceUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('is true for a write that reached a read-only server (a demoted primary during a switchover), even as a cause', () => {
    const readOnly = Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' });
    expect(isServiceUnavailable(readOnly)).toBe(true);
    expect(isServiceUnavailable(new Error('append failed', { cause: readOnly }))).toBe(true);
  });

  it('is true for a connection given up as silent: a connect timeout, a socket destroyed by a stall probe or by ioredis', () => {
    expect(isServiceUnavailable(new Error('Connection terminated due to connection timeout'))).toBe(true);
    expect(isServiceUnavailable(new Error('Connection terminated: the server did not answer a probe while this query waited'))).toBe(true);
    expect(isServiceUnavailable(new Error("Socket timeout. Expecting data, but didn't receive any in 3000ms."))).toBe(true);
    expect(isServiceUnavailable(Object.assign(new Error('could not write to file "pg_wal/xlogtemp.1": No space left on device'), { code: '53100' }))).toBe(true);
  });

  it('is false for what the request or the code got wrong', () => {
    expect(isServiceUnavailable(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }))).toBe(false);
    expect(isServiceUnavailable(new TypeError('x is undefined'))).toBe(false);
  });
});
