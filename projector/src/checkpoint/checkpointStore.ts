import { formatPosition, parsePosition, type Position } from '@bank/eventstore';
import type pg from 'pg';
import type { Statement } from '../changes/changeStatements';
import type { ReadModelTables } from '../schema/readModelTables';

/** The default projector (and checkpoint) name. */
export const DEFAULT_PROJECTOR_NAME = 'main';

/** The NOTIFY channel a checkpoint advance of the live schema signals (payload: `<name> <position>`). */
export const CHECKPOINT_CHANNEL = 'rm_checkpoint';

type Queryable = Pick<pg.ClientBase, 'query'>;

/** The stored checkpoint moved under a writer's feet (another instance, or a rebuild swapped the schema in). */
export class CheckpointMovedError extends Error {
  override readonly name = 'CheckpointMovedError';
  readonly expected: string | null;
  readonly actual: string | null;
  constructor(name: string, expected: string | null, actual: string | null) {
    super(`Checkpoint ${name} is at ${actual ?? 'the start'}, expected ${expected ?? 'the start'}`);
    this.expected = expected;
    this.actual = actual;
  }
}

export function positionOrUndefined(text: string | null | undefined): Position | undefined {
  return text ? parsePosition(text) : undefined;
}

/** Makes sure the checkpoint row exists and returns its position (formatted), null when nothing was applied. */
export async function readCheckpoint(db: Queryable, tables: ReadModelTables, name: string): Promise<string | null> {
  await db.query(`INSERT INTO ${tables.checkpoint} (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [name]);
  const { rows } = await db.query<{ position: string | null }>(`SELECT position FROM ${tables.checkpoint} WHERE name = $1`, [name]);
  return rows[0]?.position ?? null;
}

/**
 * Inside a batch's transaction: locks the checkpoint row and checks it is still `expected`. Throws
 * CheckpointMovedError otherwise (the batch must be rolled back and the reader restarted from the stored position).
 */
export async function lockCheckpoint(db: Queryable, tables: ReadModelTables, name: string, expected: string | null): Promise<void> {
  const { rows } = await db.query<{ position: string | null }>(`SELECT position FROM ${tables.checkpoint} WHERE name = $1 FOR UPDATE`, [name]);
  if (rows.length === 0) {
    if (expected !== null) throw new CheckpointMovedError(name, expected, null);
    await db.query(`INSERT INTO ${tables.checkpoint} (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [name]);
    return;
  }
  const actual = rows[0]!.position;
  if (actual !== expected) throw new CheckpointMovedError(name, expected, actual);
}

/** A move of the checkpoint: from `expected` (compare-and-set) to `next`, after applying `applied` events. */
export interface CheckpointAdvance {
  readonly name: string;
  readonly expected: string | null;
  readonly next: Position;
  readonly applied: number;
  readonly lastEventCreated: Date;
}

/** Compare-and-set of the checkpoint from `expected` to `next`; throws CheckpointMovedError when it was not `expected`. */
export async function advanceCheckpoint(db: Queryable, tables: ReadModelTables, move: CheckpointAdvance): Promise<void> {
  const { name, expected, next, applied, lastEventCreated } = move;
  const result = await db.query(
    `UPDATE ${tables.checkpoint}
        SET position = $3, position_commit = $4, position_prepare = $5, events_applied = events_applied + $6,
            last_event_created_at = $7, updated_at = now()
      WHERE name = $1 AND position IS NOT DISTINCT FROM $2`,
    [name, expected, formatPosition(next), next.commit.toString(), next.prepare.toString(), applied, lastEventCreated],
  );
  if (result.rowCount !== 1) {
    const actual = await db.query<{ position: string | null }>(`SELECT position FROM ${tables.checkpoint} WHERE name = $1`, [name]);
    throw new CheckpointMovedError(name, expected, actual.rows[0]?.position ?? null);
  }
}

/** The message of the error the statements below raise when the checkpoint is not where the batch started. */
export const CHECKPOINT_MOVED_MESSAGE = 'bank.projector: the checkpoint moved';

/**
 * For a batch sent as one simple query: lock the checkpoint row and raise CHECKPOINT_MOVED_MESSAGE (through the
 * schema's `require_row`) unless it is still `expected`. (A missing row locks nothing; the advance then raises.)
 * Every parameter is typed, so the batch script prepares it once per connection (PreparedStatements).
 */
export function lockCheckpointStatement(tables: ReadModelTables, name: string, expected: string | null): Statement {
  return {
    text: `SELECT ${tables.schema}.require_row(position IS NOT DISTINCT FROM $2::text, $3::text)
    FROM ${tables.checkpoint} WHERE name = $1::text FOR UPDATE`,
    values: [name, expected, CHECKPOINT_MOVED_MESSAGE],
  };
}

/** advanceCheckpoint as one statement that raises CHECKPOINT_MOVED_MESSAGE instead of returning a count. */
export function advanceCheckpointStatement(tables: ReadModelTables, move: CheckpointAdvance): Statement {
  const { name, expected, next, applied, lastEventCreated } = move;
  return {
    text: `WITH moved AS (
      UPDATE ${tables.checkpoint}
         SET position = $3::text, position_commit = $4::numeric, position_prepare = $5::numeric,
             events_applied = events_applied + $6::bigint, last_event_created_at = $7::timestamptz, updated_at = now()
       WHERE name = $1::text AND position IS NOT DISTINCT FROM $2::text
      RETURNING 1)
    SELECT ${tables.schema}.require_row(EXISTS (SELECT 1 FROM moved), $8::text)`,
    values: [name, expected, formatPosition(next), next.commit, next.prepare, applied, lastEventCreated, CHECKPOINT_MOVED_MESSAGE],
  };
}
