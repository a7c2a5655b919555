import { formatPosition, type Position } from '@bank/eventstore';
import { sleep } from '@bank/platform';
import type pg from 'pg';

/** The live read models' checkpoint (the projector 'main', schema rm). */
const CHECKPOINT_SQL = `SELECT position FROM rm.checkpoint WHERE name = 'main'`;

/** The projector did not apply an event the COB waits for in time. */
export class ProjectorBehindError extends Error {
  constructor(what: string, waitedMs: number) {
    super(`The projector has not applied ${what} after ${Math.round(waitedMs / 1000)} s; is it running? The next COB run goes on from here`);
    this.name = 'ProjectorBehindError';
  }
}

/**
 * Waits until the live read models have applied `position` (their checkpoint is at or after it), polling the
 * checkpoint (a few ms at first, at most every 50 ms). Fails with a ProjectorBehindError after `timeoutMs`.
 */
export async function waitForReadModels(pool: pg.Pool, position: Position, timeoutMs: number, what: string): Promise<void> {
  const target = formatPosition(position);
  const started = Date.now();
  for (let pause = 2; ; pause = Math.min(50, pause * 2)) {
    const { rows } = await pool.query<{ position: string | null }>(CHECKPOINT_SQL).catch((error: { code?: string }) => {
      if (error.code === '42P01' || error.code === '3F000') return { rows: [] as { position: string | null }[] }; // not migrated yet
      throw error;
    });
    const applied = rows[0]?.position ?? null;
    if (applied !== null && applied >= target) return;
    if (Date.now() - started >= timeoutMs) throw new ProjectorBehindError(what, Date.now() - started);
    await sleep(pause);
  }
}
