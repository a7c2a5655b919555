import { formatPosition, parsePosition, type Position } from '@bank/eventstore';
import { runDdl } from '@bank/platform';
import type pg from 'pg';

/**
 * Where a log-driven process (the transfer process) has got to: the position up to which every event is handled.
 * In PostgreSQL beside the read models whatever the event store; written after the work, so a crash makes the
 * process see some events again (each step is idempotent), never skip one.
 */
export const PROCESS_SCHEMA = 'process';

export async function ensureProcessSchema(pool: pg.Pool): Promise<void> {
  await runDdl(pool, 'process-schema', `
    CREATE SCHEMA IF NOT EXISTS ${PROCESS_SCHEMA};
    CREATE TABLE IF NOT EXISTS ${PROCESS_SCHEMA}.checkpoints (
      name        text PRIMARY KEY,
      position    text,
      updated_at  timestamptz NOT NULL DEFAULT now()
    );`);
}

export async function readProcessCheckpoint(pool: pg.Pool, name: string): Promise<Position | undefined> {
  const { rows } = await pool.query<{ position: string | null }>(`SELECT position FROM ${PROCESS_SCHEMA}.checkpoints WHERE name = $1`, [name]);
  const text = rows[0]?.position;
  return text ? parsePosition(text) : undefined;
}

/** Moves the checkpoint forward (never back: a late write of an older position changes nothing). */
export async function saveProcessCheckpoint(pool: pg.Pool, name: string, position: Position): Promise<void> {
  await pool.query(
    `INSERT INTO ${PROCESS_SCHEMA}.checkpoints AS c (name, position) VALUES ($1, $2)
     ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = now()
     WHERE c.position IS NULL OR c.position < EXCLUDED.position`,
    [name, formatPosition(position)],
  );
}
