import { expect, it } from 'vitest';
import { newEvents } from './conformanceHelpers';
import type { ConformanceContext } from './eventStoreConformance';

export function positionTokenCases(context: ConformanceContext): void {
  it('turns a position into a decimal token and resolves the token back to the position', async () => {
    const stream = context.streams.next('token');
    await context.store.append(stream, newEvents(2), 'no_stream');
    const { position } = await context.store.append(stream, newEvents(1), 1n);

    const token = context.store.positionToken(position);

    expect(token).toMatch(/^\d+$/);
    await expect(context.store.resolvePositionToken(token)).resolves.toEqual(position);
  });

  it('resolves the token of the last event of a multi-event append back to its position', async () => {
    const { position } = await context.store.append(context.streams.next('token_batch'), newEvents(3), 'no_stream');

    await expect(context.store.resolvePositionToken(context.store.positionToken(position))).resolves.toEqual(position);
  });

  it('resolves a token of no stored event to undefined', async () => {
    const { position } = await context.store.append(context.streams.next('token_end'), newEvents(1), 'no_stream');
    const beyond = BigInt(context.store.positionToken(position)) + 1_000_000_000n;

    await expect(context.store.resolvePositionToken(beyond.toString())).resolves.toBeUndefined();
    await expect(context.store.resolvePositionToken('not-a-position')).resolves.toBeUndefined();
  });

  // X-Event-Position / X-Consistent-Position come from clients: a token between two events (on EventStoreDB, a byte
  // inside a record, which the server refuses to read from) must resolve to nothing, not fail the request.
  it('resolves a token that is not an event position to undefined instead of failing', async () => {
    const { position } = await context.store.append(context.streams.next('token_between'), newEvents(1), 'no_stream');
    const token = BigInt(context.store.positionToken(position));

    const candidates = [
      (token + 1n).toString(), // just after the last event: inside its record on EventStoreDB, unused on PostgreSQL
      '0',
      '9223372036854775807', // the largest position either store can have, far beyond the log
      '9223372036854775808', // one more: no position at all
      '99999999999999999999',
      '-1',
      '',
    ];

    for (const candidate of candidates) {
      await expect(context.store.resolvePositionToken(candidate), `token ${JSON.stringify(candidate)}`).resolves.toBeUndefined();
    }
  });
}
