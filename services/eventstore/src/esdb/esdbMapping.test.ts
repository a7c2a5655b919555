import { ANY, EventStoreDBClient, NO_STREAM, STREAM_EXISTS, type AppendResult } from '@eventstore/db-client';
import { describe, expect, it } from 'vitest';
import { EsdbMappingError } from './esdbErrors';
import {
  appendOutcome,
  isSystemEvent,
  knownPosition,
  serverExpectation,
  toEsdbConnectionString,
  toEsdbEvent,
  toEsdbExpectedRevision,
  toRecordedEvent,
} from './esdbMapping';

/** What the server sends, and the client passes on, for "no position": -1 as an unsigned 64-bit number. */
const NO_POSITION = 18446744073709551615n;

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

describe('serverExpectation', () => {
  it("sends 'any' and 'exists' as the revision just read, so that a write in between makes it fail and retry", () => {
    expect(serverExpectation('any', 4n)).toEqual({ send: 4n, retryOnConflict: true });
    expect(serverExpectation('exists', 4n)).toEqual({ send: 4n, retryOnConflict: true });
    expect(serverExpectation('any', undefined)).toEqual({ send: NO_STREAM, retryOnConflict: true });
  });

  it("sends the caller's own expectation otherwise: a conflict is then the caller's", () => {
    expect(serverExpectation('exists', undefined)).toEqual({ send: STREAM_EXISTS, retryOnConflict: false });
    expect(serverExpectation('no_stream', 3n)).toEqual({ send: NO_STREAM, retryOnConflict: false });
    expect(serverExpectation(2n, 3n)).toEqual({ send: 2n, retryOnConflict: false });
  });
});

describe('appendOutcome', () => {
  it('treats success: false (throwOnAppendFailure=false) as a conflict whatever revision the client reports', () => {
    // The client's batch-append path reports BigInt(hasCurrentStreamRevision()), i.e. 1n, for any actual revision.
    const reported: AppendResult = { success: false, nextExpectedRevision: 1n, position: undefined };
    expect(appendOutcome(reported)).toEqual({ kind: 'conflict' });
  });

  it('keeps a real position and drops a missing one (a retry the server recognised itself)', () => {
    expect(appendOutcome({ success: true, nextExpectedRevision: 3n, position: { commit: 90n, prepare: 90n } })).toEqual({
      kind: 'appended',
      nextExpectedRevision: 3n,
      position: { commit: 90n, prepare: 90n },
    });
    expect(appendOutcome({ success: true, nextExpectedRevision: 3n })).toMatchObject({ kind: 'appended', position: undefined });
    expect(appendOutcome({ success: true, nextExpectedRevision: 3n, position: { commit: NO_POSITION, prepare: NO_POSITION } })).toMatchObject({
      position: undefined,
    });
  });
});

describe('knownPosition', () => {
  it('refuses the unsigned -1 in either part', () => {
    expect(knownPosition({ commit: 5n, prepare: 4n })).toEqual({ commit: 5n, prepare: 4n });
    expect(knownPosition({ commit: NO_POSITION, prepare: 4n })).toBeUndefined();
    expect(knownPosition({ commit: 5n, prepare: NO_POSITION })).toBeUndefined();
    expect(knownPosition(undefined)).toBeUndefined();
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

  it('uses the commit position of a $all read when the record has none, and empty metadata when there is none', () => {
    // The client always fills the record's position: the server's "none" arrives as 2^64-1.
    const noPosition = { commit: NO_POSITION, prepare: NO_POSITION };
    const event = toRecordedEvent({ event: { ...base, data: {}, metadata: undefined, position: noPosition }, commitPosition: 77n });
    expect(event).toMatchObject({ position: { commit: 77n, prepare: 77n }, metadata: {} });
  });

  it('refuses an event it cannot place in the log, with an error the subscription does not retry', () => {
    const noPosition = { commit: NO_POSITION, prepare: NO_POSITION };
    expect(() => toRecordedEvent({ event: { ...base, data: {}, metadata: undefined, position: noPosition } })).toThrow(EsdbMappingError);
    expect(() => toRecordedEvent({ event: { ...base, data: {}, metadata: undefined, position: noPosition }, commitPosition: NO_POSITION })).toThrow(
      /without a position/,
    );
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

  it('gives the client a string it parses for every scheme the configuration accepts', async () => {
    const urls = [
      'esdb://127.0.0.1:1?tls=false',
      'esdb+discover://127.0.0.1:1?tls=false',
      'kurrentdb://admin:changeit@127.0.0.1:1,127.0.0.2:1?tls=false',
      'kurrentdb+discover://127.0.0.1:1?tls=false',
    ];
    for (const url of urls) {
      const client = EventStoreDBClient.connectionString(toEsdbConnectionString(url));
      await client.dispose();
    }
    expect(() => EventStoreDBClient.connectionString('kurrentdb://127.0.0.1:1')).toThrow(/esdb:\/\/ or esdb\+discover:\/\//);
  });
});

