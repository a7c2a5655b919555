import type pg from 'pg';
import { defineProjection, type Projection } from '../projections/projection';

/**
 * A test projection recording every event it sees in `public.applied_probe` with a plain INSERT on the event id:
 * an event applied twice violates the primary key and stops the projector, so a full table proves exactly-once.
 */
export async function createAppliedProbeTable(pool: pg.Pool): Promise<void> {
  await pool.query(`CREATE TABLE IF NOT EXISTS public.applied_probe (
    event_id uuid PRIMARY KEY, position text NOT NULL, pid integer NOT NULL DEFAULT pg_backend_pid(), applied_at timestamptz NOT NULL DEFAULT clock_timestamp())`);
}

export const appliedProbe: Projection = defineProjection({
  name: 'applied_probe',
  tables: {},
  handlers: {},
  everyEvent(event, db) {
    db.execute('INSERT INTO public.applied_probe (event_id, position) VALUES ($1, $2)', [event.id, `${event.position.commit}:${event.position.prepare}`]);
  },
});
