import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferInput } from '@bank/domain';
import { createPostgresEventStore, formatPosition, type EventStore, type NewEvent } from '@bank/eventstore';
import { migrateReadModels } from '@bank/projector';
import { createTransferFixture, waitUntil, type TransferFixture } from '@bank/testkit';
import type pg from 'pg';
import { requestTransfer } from './requestTransfer';
import { startTransferProcess, type TransferProcessHandle } from './transferProcess';

/**
 * A fresh transfer process (no checkpoint) over a log that is mostly not transfers: the work it does is counted —
 * events handed to it and reads of the log — not timed.
 */
const PIN = '123456';
const NOISE_STREAMS = 100;
const NOISE_PER_STREAM = 100;
let fx: TransferFixture;
let process_: TransferProcessHandle | undefined;
let store: EventStore | undefined;

/** The fixture's pool, counting the event store's subscription reads (one query each) and the events they fetch. */
function countingReads(pool: pg.Pool) {
  const counter = { reads: 0, fetched: 0 };
  const counted = new Proxy(pool, {
    get(target, property, receiver) {
      if (property !== 'query') return Reflect.get(target, property, receiver) as unknown;
      return async (config: unknown, ...rest: unknown[]) => {
        const result = (await (target.query as (...args: unknown[]) => Promise<pg.QueryResult>).call(target, config, ...rest)) as pg.QueryResult<{ global_position: unknown }>;
        if (typeof config === 'object' && config !== null && String((config as { name?: unknown }).name).endsWith('read_all_subscription')) {
          counter.reads += 1;
          counter.fetched += result.rows.filter((row) => row.global_position !== null).length;
        }
        return result;
      };
    },
  });
  return { pool: counted, counter };
}

beforeAll(async () => {
  fx = await createTransferFixture('transfer_catch_up');
  await migrateReadModels(fx.pool);
});

afterAll(async () => {
  await process_?.stop();
  await store?.close();
  await fx?.close();
});

describe('a fresh transfer process catching up over a long log', () => {
  it('is handed only the debits and moves its checkpoint to the head past 10,000 other events in a few reads', async () => {
    // A transfer requested while no process runs (its debit waits in the log), then a long run of other events.
    const payer = await fx.openCustomer({ savingsCents: 100_00, pin: PIN });
    const payee = await fx.openCustomer();
    const pending = await requestTransfer(
      { commands: fx.commands, pool: fx.pool, signals: fx.signals, pinKeys: fx.pinKeys, creditWaitMs: 0 },
      {
        userId: payer.userId,
        input: transferInput.parse({ from: 'savings', accountType: 'savings', amount: 5, accountNumber: payee.accountNumber, paymentPin: PIN }),
        idempotencyKey: randomUUID(),
      },
    );
    expect(pending.status).toBe('pending');
    for (let stream = 0; stream < NOISE_STREAMS; stream += 1) {
      const events: NewEvent[] = Array.from({ length: NOISE_PER_STREAM }, (_, index) => ({ id: randomUUID(), type: 'NoiseRecorded', data: { index } }));
      await fx.store.append(`noise-${randomUUID()}`, events, 'no_stream');
    }
    const head = await waitUntil(async () => fx.store.headPosition(), { what: 'the head' });
    const { rows } = await fx.pool.query<{ events: string; debits: string }>(
      `SELECT count(*) AS events, count(*) FILTER (WHERE type = 'AccountDebited') AS debits FROM eventstore.events`,
    );
    expect(Number(rows[0]!.events)).toBeGreaterThan(NOISE_STREAMS * NOISE_PER_STREAM);

    const counting = countingReads(fx.pool);
    store = createPostgresEventStore({ pool: counting.pool });
    const handed: string[] = [];
    let atHead: { reads: number; fetched: number } | undefined;
    const target = formatPosition(head);
    const watched: EventStore = Object.assign(Object.create(store) as EventStore, {
      subscribe: ((handler, options = {}) =>
        store!.subscribe((event, self) => (handed.push(event.type), handler(event, self)), {
          ...options,
          onProgress: (position) => {
            if (!atHead && formatPosition(position) >= target) atHead = { ...counting.counter };
            options.onProgress?.(position);
          },
        })) satisfies EventStore['subscribe'],
    });
    process_ = startTransferProcess({
      store: watched,
      commands: fx.commands,
      pool: fx.pool,
      signals: fx.signals,
      checkpointEveryMs: 20,
      name: 'catch-up-test',
    });
    await process_.caughtUp;
    await waitUntil(async () => (process_!.status().checkpoint ?? '') >= target, { what: 'the checkpoint at the head' });

    expect(await fx.transferEvents(pending.transferId)).toEqual(['TransferRequested', 'TransferDebited', 'TransferCredited']);
    expect(handed.length).toBe(Number(rows[0]!.debits));
    expect(new Set(handed)).toEqual(new Set(['AccountDebited']));
    // The events fetched from the database are the debits alone; one read finds them and the head (more only while
    // another transaction on the server holds the log back). Unfiltered, 500 a read, it took 21 reads and 10,000 rows.
    expect(atHead).toBeDefined();
    expect(atHead!.fetched).toBe(Number(rows[0]!.debits));
    expect(atHead!.reads).toBeLessThanOrEqual(10);
  });
});
