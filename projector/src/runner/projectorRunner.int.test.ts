import { formatPosition } from '@bank/eventstore';
import { createPool } from '@bank/platform';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultProjections } from '../projections/defaultProjections';
import { defineProjection, type Projection } from '../projections/projection';
import { migrateReadModels } from '../schema/migrateReadModels';
import { appendHistory } from '../testing/appendHistory';
import { appliedProbe, createAppliedProbeTable } from '../testing/appliedProbe';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { readModelSnapshot } from '../testing/readModelSnapshot';
import { ids, sampleHistory } from '../testing/sampleHistory';
import { EventApplyError } from './eventDispatcher';
import { startProjector, type ProjectorHandle, type ProjectorOptions } from './projectorRunner';
import { untilHeadApplied } from '../testing/untilHeadApplied';

let db: ProjectorTestDatabase;
const running: ProjectorHandle[] = [];
const history = sampleHistory();

function start(options: Partial<ProjectorOptions> = {}): ProjectorHandle {
  const handle = startProjector({ pool: db.pool, store: db.store, leaderRetryMs: 50, projections: [...defaultProjections, appliedProbe], ...options });
  running.push(handle);
  return handle;
}

async function checkpointOf(schema = 'rm', name = 'main'): Promise<string | null> {
  const { rows } = await db.pool.query(`SELECT position FROM ${schema}.checkpoint WHERE name = $1`, [name]);
  return rows[0]?.position ?? null;
}

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function probeCount(): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM public.applied_probe');
  return rows[0]!.n;
}

beforeAll(async () => {
  db = await createProjectorTestDatabase('projector_runner');
});
afterAll(async () => {
  await db.close();
});
beforeEach(async () => {
  await db.pool.query('DROP SCHEMA IF EXISTS rm CASCADE; DROP SCHEMA IF EXISTS rm_ref CASCADE; DROP TABLE IF EXISTS public.applied_probe');
  await db.pool.query('TRUNCATE eventstore.events, eventstore.streams');
  await createAppliedProbeTable(db.pool);
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((handle) => handle.stop()));
});

describe('the projector', () => {
  it('catches up from the start of the log, then applies new events live', async () => {
    const half = Math.floor(history.length / 2);
    const appended = await appendHistory(db.store, history.slice(0, half));
    const projector = start();
    await projector.ready;
    await projector.caughtUp;
    await untilHeadApplied(db.pool, db.store, { position: appended! });
    expect(await probeCount()).toBe(half);

    const last = await appendHistory(db.store, history.slice(half));
    await until(async () => (await checkpointOf()) === formatPosition(last!));
    expect(await probeCount()).toBe(history.length);
    const { rows } = await db.pool.query('SELECT savings_cents FROM rm.accounts WHERE user_id = $1', [ids.ada]);
    expect(rows).toEqual([{ savings_cents: '98000' }]);
    expect(projector.status()).toMatchObject({ state: 'leader', position: formatPosition(last!) });
  });

  it('resumes from its checkpoint after a restart, applying nothing twice', async () => {
    await appendHistory(db.store, history.slice(0, 20));
    const first = start();
    await first.caughtUp;
    await first.stop();

    const last = await appendHistory(db.store, history.slice(20));
    const second = start();
    await second.caughtUp;
    await untilHeadApplied(db.pool, db.store, { position: last! });
    expect(await checkpointOf()).toBe(formatPosition(last!));
    expect(await probeCount()).toBe(history.length);
  });

  it('stops promptly when stopped as the leader before it has caught up, and a restart applies the rest once', async () => {
    const many = Array.from({ length: 1_000 }, (_, i) => ({ stream: `future-${i % 50}`, event: { type: 'NotInvented', data: { i } } }));
    const appended = await appendHistory(db.store, many);
    const projector = start({ batchSize: 10 });
    await until(async () => projector.status().state === 'leader' && (await probeCount()) > 0);
    await projector.stop();
    expect(projector.status().state).toBe('stopped');
    const applied = await probeCount();
    expect(applied).toBeLessThan(many.length);
    // A restart applies the rest from the checkpoint, each event once (the probe's primary key would stop it).
    const again = start({ batchSize: 500 });
    await again.caughtUp;
    await untilHeadApplied(db.pool, db.store, { position: appended! });
    expect(await probeCount()).toBe(many.length);
  });

  it('passes over an event of an unknown type and counts it', async () => {
    const appended = await appendHistory(db.store, [{ stream: 'future-1', event: { type: 'NotInvented', data: { x: 1 } } }, ...history.slice(0, 3)]);
    const projector = start();
    await projector.caughtUp;
    await untilHeadApplied(db.pool, db.store, { position: appended! });
    expect(await probeCount()).toBe(4);
    const metrics = await projector.metrics.registry.getMetricsAsJSON();
    const unknown = metrics.find((metric) => metric.name === 'bank_projector_unknown_events_total');
    expect(unknown?.values[0]?.value).toBe(1);
  });

  it('stops with a clear error and a metric on an event it cannot apply, and a restart ends as an uninterrupted run', async () => {
    const appended = await appendHistory(db.store, history);
    const reference = start({ name: 'reference', schema: 'rm_ref', projections: defaultProjections });
    await reference.caughtUp;
    await untilHeadApplied(db.pool, db.store, { schema: 'rm_ref', name: 'reference' });

    const failing = ids.externalRefund;
    const throwing: Projection = defineProjection({
      name: 'throwing',
      tables: {},
      handlers: {
        AccountCredited(event) {
          if (event.data.transactionId === failing) throw new Error('simulated crash');
        },
      },
    });
    const crashed = start({ projections: [...defaultProjections, throwing], batchSize: 10 });
    const outcome = await crashed.done;
    expect(outcome.error).toBeInstanceOf(EventApplyError);
    expect(outcome.error?.message).toMatch(/Cannot apply AccountCredited .* simulated crash/);
    expect(crashed.status().state).toBe('failed');
    const metrics = await crashed.metrics.registry.getMetricsAsJSON();
    expect(metrics.find((metric) => metric.name === 'bank_projector_failures_total')?.values).toContainEqual(
      expect.objectContaining({ labels: { projector: 'main', kind: 'apply' }, value: 1 }),
    );
    expect(metrics.find((metric) => metric.name === 'bank_projector_stopped_on_error')?.values[0]?.value).toBe(1);
    // The failing batch was rolled back whole: the checkpoint stopped before it.
    const stoppedAt = await checkpointOf();
    expect(stoppedAt).not.toBeNull();
    expect(await probeCount()).toBeLessThan(history.length);

    const restarted = start({ projections: defaultProjections });
    await restarted.caughtUp;
    await untilHeadApplied(db.pool, db.store, { position: appended! });
    expect(await readModelSnapshot(db.pool, 'rm')).toEqual(await readModelSnapshot(db.pool, 'rm_ref'));
    expect(await checkpointOf()).toBe(await checkpointOf('rm_ref', 'reference'));
  });

  it('stops on an event that refers to a row that does not exist, naming the event', async () => {
    await appendHistory(db.store, [
      ...history.slice(0, 6),
      { stream: 'transfer-00000000-0000-4000-8000-00000000dead', event: { type: 'TransferSent', data: { transferId: '00000000-0000-4000-8000-00000000dead', occurredAt: '2025-06-01T10:00:00.000Z' } } },
      ...history.slice(6, 10),
    ]);
    const projector = start({ batchSize: 100 });
    const { error } = await projector.done;
    expect(error).toBeInstanceOf(EventApplyError);
    expect(error).toMatchObject({ eventType: 'TransferSent', streamId: 'transfer-00000000-0000-4000-8000-00000000dead' });
    expect(error?.message).toMatch(/refers to "rm"\.transfers row 00000000-0000-4000-8000-00000000dead, which does not exist/);
    // The batches before it may have been applied (how the log is cut into batches depends on timing); the
    // checkpoint never passes the event.
    const stoppedAt = await checkpointOf();
    expect(stoppedAt === null || stoppedAt < (error as EventApplyError).position).toBe(true);
  });

  it('stops on an event whose data the domain refuses', async () => {
    await appendHistory(db.store, [{ stream: 'account-x', event: { type: 'AccountOpened', data: { userId: 'not-a-uuid' } } }]);
    const { error } = await start().done;
    expect(error).toBeInstanceOf(EventApplyError);
    expect(error?.message).toMatch(/Invalid data for AccountOpened/);
  });

  it('retries a batch that reached a read-only server (a switchover’s demoted primary) on a new connection, and catches up', async () => {
    // The projector's own pool, whose new connections are read-only while `readOnly` is set: what the one endpoint
    // does for a moment during a switchover, when it still leads a new connection to the demoted primary.
    const pool = createPool(db.url, 4);
    let readOnly = true;
    pool.on('connect', (client) => {
      if (readOnly) void client.query('SET default_transaction_read_only = on').catch(() => undefined);
    });
    try {
      const last = await appendHistory(db.store, history);
      await migrateReadModels(db.pool, 'rm');
      const projector = start({ pool, migrate: false });
      await until(async () => {
        const metrics = await projector.metrics.registry.getMetricsAsJSON();
        const transient = metrics.find((metric) => metric.name === 'bank_projector_failures_total')?.values.find((value) => value.labels.kind === 'transient');
        return Number(transient?.value ?? 0) >= 2;
      });
      expect(projector.status().state).toBe('leader');
      readOnly = false;
      await until(async () => (await checkpointOf()) === formatPosition(last!));
      expect(await probeCount()).toBe(history.length);
      expect(projector.status()).toMatchObject({ state: 'leader', error: undefined });
      await projector.stop();
    } finally {
      await pool.end();
    }
  });

  it('runs one active instance; the standby takes over from the checkpoint when the leader stops', async () => {
    await appendHistory(db.store, history.slice(0, 10));
    const leader = start();
    await leader.caughtUp;
    const standby = start();
    await standby.ready;
    await until(async () => standby.status().state === 'standby');
    expect(leader.status().state).toBe('leader');

    await leader.stop();
    await standby.caughtUp;
    expect(standby.status().state).toBe('leader');
    const last = await appendHistory(db.store, history.slice(10));
    await until(async () => (await checkpointOf()) === formatPosition(last!));
    expect(await probeCount()).toBe(history.length);
  });
});
