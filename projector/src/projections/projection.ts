import type { BankEventType, EventData } from '@bank/domain';
import type { EventMetadata, Position, RecordedEvent } from '@bank/eventstore';
import type pg from 'pg';
import type { ReadModelTables } from '../schema/readModelTables';

/** A stored event, validated against the domain's schema, as a projection sees it. */
export interface ProjectedEvent<K extends BankEventType = BankEventType> {
  readonly type: K;
  readonly data: EventData<K>;
  readonly id: string;
  readonly streamId: string;
  readonly position: Position;
  /** `formatPosition(position)`: compared with the rows' `last_position`. */
  readonly positionText: string;
  readonly metadata: EventMetadata;
  readonly created: Date;
  readonly recorded: RecordedEvent;
}

/** What a projection writes with: the batch's transaction and the tables of the schema being written. */
export interface ProjectionDb {
  readonly tables: ReadModelTables;
  /** Queues a write; the batch's writes reach the server together (see StatementBatch). */
  execute(text: string, values?: readonly unknown[]): Promise<void>;
  /**
   * Queues a guarded update of a row that must exist; use `updateExistingRow`. The row's existence is checked
   * after the batch's writes (one query per table), or in the statement itself when applying event by event.
   */
  updateExisting(update: ExistingRowUpdate): Promise<void>;
  /** Runs a query now, after the queued writes, and returns its result (for the rare projection that reads). */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: readonly unknown[]): Promise<pg.QueryResult<R>>;
}

export interface ExistingRowUpdate {
  readonly table: string;
  readonly idColumn: string;
  readonly id: string;
  /** `UPDATE … WHERE <idColumn> = … AND last_position < …` with `$n` placeholders, no RETURNING. */
  readonly sql: string;
  readonly values: readonly unknown[];
  /** Why the event cannot be applied when the row does not exist. */
  readonly message: string;
}

export type ProjectionHandlers = {
  readonly [K in BankEventType]?: (event: ProjectedEvent<K>, db: ProjectionDb) => Promise<void>;
};

/**
 * A projection: the event types it handles and how. Every handler must be idempotent: applying an event whose
 * position is at or before a row's `last_position` changes nothing.
 */
export interface Projection {
  readonly name: string;
  readonly handlers: ProjectionHandlers;
  /** Runs for every event of the log, known or not, before the typed handlers (e.g. a probe in tests). */
  readonly everyEvent?: (event: RecordedEvent, db: ProjectionDb) => Promise<void>;
}

/** An event a projection cannot apply (e.g. it changes a row that does not exist): stops the projector. */
export class ProjectionError extends Error {
  override readonly name = 'ProjectionError';
}

export function defineProjection(name: string, handlers: ProjectionHandlers): Projection {
  return { name, handlers };
}

/** The user id of a `customer-<id>` or `account-<id>` stream. */
export function streamOwner(event: Pick<ProjectedEvent, 'streamId'>): string {
  const dash = event.streamId.indexOf('-');
  const id = dash < 0 ? '' : event.streamId.slice(dash + 1);
  if (!id) throw new ProjectionError(`Stream ${event.streamId} names no owner`);
  return id;
}

/**
 * Queues a guarded update of a row that must exist (`UPDATE … WHERE <id> = … AND last_position < $pos`, without
 * RETURNING). Zero rows changed is fine when the row exists (the event was applied already); when the row does not
 * exist the event cannot be applied and the projector stops.
 */
export async function updateExistingRow(
  db: ProjectionDb,
  event: Pick<ProjectedEvent, 'type' | 'streamId' | 'positionText'>,
  table: string,
  id: string,
  sql: string,
  values: readonly unknown[],
  idColumn = 'id',
): Promise<void> {
  const message = `${event.type} of ${event.streamId} at ${event.positionText} refers to ${table} row ${id}, which does not exist`;
  await db.updateExisting({ table, idColumn, id, sql, values, message });
}

/** The update as one statement that fails on the server when the row does not exist (`require_row`). */
export function checkedUpdateSql(schema: string, update: ExistingRowUpdate): { text: string; values: unknown[] } {
  const n = update.values.length;
  return {
    text: `WITH changed AS (${update.sql} RETURNING 1)
     SELECT ${schema}.require_row(EXISTS (SELECT 1 FROM changed) OR EXISTS (SELECT 1 FROM ${update.table} WHERE ${update.idColumn} = $${n + 1}), $${n + 2})`,
    values: [...update.values, update.id, update.message],
  };
}
