import type { RecordedEvent } from '@bank/eventstore';
import { describe, expect, it } from 'vitest';
import { EventApplyError, isTransientDatabaseError } from './eventDispatcher';

function pgError(code: string, message = 'server said no'): Error {
  return Object.assign(new Error(message), { code });
}

describe('which database errors the projector retries (isTransientDatabaseError)', () => {
  it('retries a write that reached a read-only server (a switchover’s demoted primary), not taking it for the event’s fault', () => {
    expect(isTransientDatabaseError(pgError('25006', 'cannot execute INSERT in a read-only transaction'))).toBe(true);
  });

  it('retries lost connections, shutdowns, resource limits, conflicts and timeouts', () => {
    for (const code of ['08006', '08001', '57P01', '57P03', '53300', '53100', '58030', '40001', '40P01', '55P03', '57014']) {
      expect(isTransientDatabaseError(pgError(code)), code).toBe(true);
    }
    expect(isTransientDatabaseError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isTransientDatabaseError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
  });

  it('stops on what is the event’s fault: a constraint, a missing row, bad data, or an error it has already named', () => {
    for (const code of ['23505', '23503', '22P02', '42P01']) expect(isTransientDatabaseError(pgError(code)), code).toBe(false);
    expect(isTransientDatabaseError(new Error('simulated crash'))).toBe(false);
    const event = { id: 'e1', type: 'AccountCredited', streamId: 'account-1', position: { commit: 1n, prepare: 1n } } as unknown as RecordedEvent;
    expect(isTransientDatabaseError(new EventApplyError(event, pgError('57P01')))).toBe(false);
  });
});
