import { formatPosition, type Position } from '@bank/eventstore';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendConcurrently } from '../testing/appendConcurrently';
import { createAppliedProbeTable } from '../testing/appliedProbe';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { generateWorkload } from '../testing/randomWorkload';
import { readModelSnapshot } from '../testing/readModelSnapshot';
import { spawnProjector, type ProjectorProcess } from '../testing/spawnProjector';
import { startProjector } from './projectorRunner';
import { untilHeadApplied } from '../testing/untilHeadApplied';

let db: ProjectorTestDatabase;
const processes: ProjectorProcess[] = [];

function spawn(env: Record<string, string> = {}): ProjectorProcess {
  const process = spawnProjector({ DATABASE_URL: db.url, PROJECTOR_PROBE: '1', ...env });
  processes.push(process);
  return process;
}

async function checkpoint(schema = 'rm', name = 'main'): Promise<{ position: string | null; applied: number }> {
  const { rows } = await db.pool.query(`SELECT position, events_applied FROM ${schema}.checkpoint WHERE name = $1`, [name]).catch(() => ({ rows: [] }));
  return { position: rows[0]?.position ?? null, applied: Number(rows[0]?.events_applied ?? 0) };
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const applied = (position: Position | undefined, schema = 'rm', name = 'main') => async () =>
  ((await checkpoint(schema, name)).position ?? '') >= formatPosition(position!);

/** Every event the probe saw, the distinct ones, and how many database sessions applied them. */
async function probe(): Promise<{ events: number; distinct: number; processes: number }> {
  const { rows } = await db.pool.query(
    'SELECT count(*)::int AS events, count(DISTINCT event_id)::int AS distinct, count(DISTINCT pid)::int AS processes FROM public.applied_probe',
  );
  return rows[0];
}

async function eventCount(): Promise<number> {
  const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM eventstore.events');
  return rows[0].n;
}

beforeAll(async () => {
  db = await createProjectorTestDatabase('projector_processes');
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
  await Promise.all(processes.splice(0).map((process) => process.kill()));
});

describe('projector processes', () => {
  it('killed with SIGKILL in the middle of a catch-up and restarted, end with exactly the tables of an uninterrupted build', async () => {
    const last = await appendConcurrently(db.store, generateWorkload({ events: 4_000, seed: 5 }));
    const total = await eventCount();
    const reference = startProjector({ pool: db.pool, store: db.store, name: 'reference', schema: 'rm_ref' });
    await reference.caughtUp;
    await untilHeadApplied(db.pool, db.store, { schema: 'rm_ref', name: 'reference' });
    await reference.stop();

    const first = spawn({ PROJECTOR_BATCH_SIZE: '20' });
    await until(async () => (await checkpoint()).applied >= 500, 'the first process to apply 500 events');
    await first.kill('SIGKILL');
    const killedAt = await checkpoint();
    expect(killedAt.applied).toBeLessThan(total);

    const second = spawn();
    await second.waitFor('leader');
    await until(applied(last), 'the restarted process to catch up');
    expect(await readModelSnapshot(db.pool, 'rm')).toEqual(await readModelSnapshot(db.pool, 'rm_ref'));
    const seen = await probe();
    expect(seen).toMatchObject({ events: total, distinct: total });
    expect(seen.processes).toBeGreaterThanOrEqual(2);
    expect((await checkpoint()).applied).toBe(total);
  });

  it('two processes: the standby takes over when the active one is killed, continuing from the checkpoint with nothing applied twice', async () => {
    const workload = generateWorkload({ events: 3_000, seed: 9 });
    await appendConcurrently(db.store, workload.slice(0, 1_000));
    const active = spawn();
    await active.waitFor('leader');
    const standby = spawn();
    await standby.waitFor('standby');

    const writing = appendConcurrently(db.store, workload.slice(1_000, 2_000), { concurrency: 2, maxPerAppend: 3 });
    await until(async () => (await checkpoint()).applied >= 1_000, 'the active process to catch up');
    await active.kill('SIGKILL');
    await standby.waitFor('leader');
    await writing;
    const last = await appendConcurrently(db.store, workload.slice(2_000));

    await until(applied(last), 'the new leader to apply everything');
    const total = await eventCount();
    const seen = await probe();
    expect(seen).toMatchObject({ events: total, distinct: total });
    expect(seen.processes).toBeGreaterThanOrEqual(2);
    expect((await checkpoint()).applied).toBe(total);
    expect(standby.states.filter((state) => state !== 'starting')).toEqual(['standby', 'leader']);
  });
});
