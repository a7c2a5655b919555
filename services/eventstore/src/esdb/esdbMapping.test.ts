import { ANY, NO_STREAM, STREAM_EXISTS, WrongExpectedVersionError as EsdbWrongExpectedVersionError } from '@eventstore/db-client';
import { describe, expect, it } from 'vitest';
import { WrongExpectedVersionError } from '../errors';
import { isSystemEvent, toEsdbConnectionString, toEsdbEvent, toEsdbExpectedRevision, toPortError, toRecordedEvent } from './esdbMapping';

describe('toEsdbExpectedRevision', () => {
  it('maps the named expectations to the client constants and passes revisions through', () => {
    expect(toEsdbExpectedRevision('any')).toBe(ANY);
    expect(toEsdbExpectedRevision('no_stream')).toBe(NO_STREAM);
    expect(toEsdbExpectedRevision('exists')).toBe(STREAM_EXISTS);
    expect(toEsdbExpectedRevision(0n)).toBe(0n);
    expect(toEsdbExpectedRevision(41n)).toBe(41n);
  });

  it('refuses a negative revision instead of sending -1n to the server', () => {
    expect(() => toEsdbExpectedRevision(-1n)).toThrow(RangeError);
  });
});

describe('toEsdbEvent', () => {
  it('keeps our event id as the EventStoreDB event id', () => {
    const id = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
    const event = toEsdbEvent({ id, type: 'Opened', data: { a: 1 }, metadata: { actorId: 'u1' } });
    expect(event).toMatchObject({ id, type: 'Opened', data: { a: 1 }, metadata: { actorId: 'u1' }, contentType: 'application/json' });
  });
});

describe('toPortError', () => {
  it('turns the client wrong-expected-version error into ours with the actual revision', () => {
    const error = new EsdbWrongExpectedVersionError(undefined, { streamName: 's-1', expected: 3n, current: 5n });
    const mapped = toPortError(error, 's-1', 3n);
    expect(mapped).toBeInstanceOf(WrongExpectedVersionError);
    expect(mapped).toMatchObject({ streamId: 's-1', expected: 3n, actual: 5n });
  });

  it('reports no actual revision when the stream does not exist', () => {
    const error = new EsdbWrongExpectedVersionError(undefined, { streamName: 's-1', expected: STREAM_EXISTS, current: NO_STREAM });
    expect(toPortError(error, 's-1', 'exists')).toMatchObject({ actual: undefined });
  });

  it('leaves other errors alone', () => {
    const error = new Error('boom');
    expect(toPortError(error, 's-1', 'any')).toBe(error);
  });
});

describe('toRecordedEvent', () => {
  const created = new Date('2024-05-01T10:00:00Z');
  const base = { streamId: 'account-1', id: 'e1', revision: 4n, type: 'Deposited', created, isJson: true as const };

  it('maps a JSON event with its position', () => {
    const event = toRecordedEvent({ event: { ...base, data: { cents: 5 }, metadata: { actorId: 'u' }, position: { commit: 10n, prepare: 9n } } });
    expect(event).toEqual({
      id: 'e1',
      streamId: 'account-1',
      revision: 4n,
      type: 'Deposited',
      data: { cents: 5 },
      metadata: { actorId: 'u' },
      position: { commit: 10n, prepare: 9n },
      created,
    });
  });

  it('uses the commit position when the record carries none, and empty metadata when there is none', () => {
    const event = toRecordedEvent({ event: { ...base, data: {}, metadata: undefined }, commitPosition: 77n });
    expect(event).toMatchObject({ position: { commit: 77n, prepare: 77n }, metadata: {} });
  });

  it('returns nothing for an unresolved link', () => {
    expect(toRecordedEvent({})).toBeUndefined();
  });
});

describe('isSystemEvent', () => {
  it('recognises $-prefixed event types and streams', () => {
    expect(isSystemEvent({ streamId: 'account-1', type: '$metadata' })).toBe(true);
    expect(isSystemEvent({ streamId: '$stats-127.0.0.1:2113', type: 'StatsCollected' })).toBe(true);
    expect(isSystemEvent({ streamId: 'account-1', type: 'Deposited' })).toBe(false);
  });
});

describe('toEsdbConnectionString', () => {
  it('accepts the kurrentdb:// scheme by rewriting it to esdb://', () => {
    expect(toEsdbConnectionString('kurrentdb://localhost:2113?tls=false')).toBe('esdb://localhost:2113?tls=false');
    expect(toEsdbConnectionString('kurrentdb+discover://a:2113')).toBe('esdb+discover://a:2113');
    expect(toEsdbConnectionString('esdb://localhost:2113?tls=false')).toBe('esdb://localhost:2113?tls=false');
  });
});

