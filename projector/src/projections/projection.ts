import type { BankEventType, EventData } from '@bank/domain';
import type { EventMetadata, Position, RecordedEvent } from '@bank/eventstore';
import type pg from 'pg';
import type { Statement } from '../changes/changeStatements';
import type { Row } from '../changes/tableChanges';
import type { ReadModelTables } from '../schema/readModelTables';
import { ProjectionError } from './projectionError';

export { ProjectionError } from './projectionError';
export type { Row } from '../changes/tableChanges';

/** A stored event, validated against the domain's schema, as a projection sees it. */
export interface ProjectedEvent<K extends BankEventType = BankEventType> {
  readonly type: K;
  readonly data: EventData<K>;
  readonly id: string;
  readonly streamId: string;
  readonly position: Position;
  /** `formatPosition(position)`: what the rows' position columns hold. */
  readonly positionText: string;
  readonly metadata: EventMetadata;
  readonly created: Date;
  readonly recorded: RecordedEvent;
}

/**
 * What a projection writes with: changes to rows of its own tables, named without schema (`'transactions'`). They
 * are folded in memory over the whole batch and written with a few multi-row statements in the batch's
 * transaction; every change is stamped with the position of the event being applied and is idempotent:
 * an event at or before a row's position changes nothing in it.
 */
export interface ProjectionDb {
  /** Inserts the row (which holds the table's key) unless a row with that key exists. */
  insert(table: string, row: Row): void;
  /** Sets these columns of the row `key` when this event is after the row's position. The row must exist. */
  update(table: string, key: string, set: Row): void;
  /** Inserts the row, or sets all its columns when this event is after the existing row's position. */
  upsert(table: string, row: Row): void;
  /**
   * The escape hatch for what rows cannot say: a SQL statement run in the batch's transaction after its row
   * changes, in event order, one round trip each. It must be idempotent on its own. `tables` has the quoted names.
   */
  execute(text: string, values?: readonly unknown[]): void;
  /**
   * This projection's accumulator for the batch (made by its `createBatch` at the first call of the batch): for
   * what is folded over the whole batch and written as a few statements (the journal's lines, running totals).
   */
  batch<T extends BatchWriter>(): T;
  readonly tables: ReadModelTables;
}

/**
 * What a projection folds over one batch besides row changes. Its statements run in the batch's transaction after
 * the row changes and before the `execute` statements; each must be idempotent on its own (a rebuild's bulk load
 * may write a batch again over what it wrote).
 */
export interface BatchWriter {
  statements(tables: ReadModelTables): Statement[];
  /**
   * A rebuild's bulk load writes the batch with this instead, when given (e.g. by COPY): atomic (its own
   * transaction), and failing with a duplicate key (23505) when the batch's rows exist already: the load then
   * writes the batch again with `statements`.
   */
  copy?(client: pg.ClientBase, tables: ReadModelTables): Promise<void>;
  /**
   * A rebuild's bulk load only (a crash starts it over, so nothing held in memory is lost): called once the batch is
   * folded and before it is written, it returns what the batch leaves to the next one instead of writing it (rows the
   * next batch would write and delete again), or undefined to write everything. From then on `statements` and
   * `copy` leave that out; the load hands it to the next batch's writer (`takeOver`), or to a writer of its own
   * after the last batch.
   */
  handOver?(): unknown;
  /** Receives what the batch before handed over (`handOver`), before this batch's first event: it comes first. */
  takeOver?(handed: unknown): void;
}

export type ProjectionHandler<K extends BankEventType> = (event: ProjectedEvent<K>, db: ProjectionDb) => void | Promise<void>;

export type ProjectionHandlers = {
  readonly [K in BankEventType]?: ProjectionHandler<K>;
};

/** A table a projection writes. */
export interface ProjectionTable {
  /** The column holding the position of the last event that changed the row. Default `last_position`. */
  readonly positionColumn?: string;
  /**
   * A table of few rows (one per customer at most) that many events update, such as the balances: a rebuild's bulk
   * load keeps its rows in memory, each folded over the whole log, and writes each row once at the end, instead of
   * updating thousands of rows batch after batch (see bulkLoad).
   */
  readonly heldDuringRebuild?: boolean;
  /**
   * A large table whose rows are each inserted once (by one event) and then only updated by key, never upserted nor
   * written by statements, whose key is not in log order (a random uuid): a rebuild's bulk load builds its primary
   * key after the load instead of inserting millions of random keys into it, and applies the updates of rows
   * inserted by earlier batches after it (see prepareBulkLoad). `upsert` on it is refused.
   */
  readonly keyAfterLoad?: boolean;
}

/**
 * A projection: the tables it writes (it writes no others) and, per event type, how. See docs/projections.md,
 * "Writing a projection".
 */
export interface Projection {
  readonly name: string;
  readonly tables: Readonly<Record<string, ProjectionTable>>;
  readonly handlers: ProjectionHandlers;
  /**
   * Tables written by statements only (the batch writer's or `execute`'s: no one-column key or no position
   * column). Named so that a rebuild treats them as the projection's own: indexes dropped for its bulk load,
   * projections sharing one built on one connection.
   */
  readonly statementTables?: readonly string[];
  /**
   * Of its tables, those it only ever appends to, in the log's order of their key (the journal): an UNLOGGED rebuild
   * loads them logged (see prepareBulkLoad), as it does the tables whose key it builds after the load (keyAfterLoad).
   */
  readonly appendOnlyTables?: readonly string[];
  /** A fresh accumulator for one batch (see ProjectionDb.batch). */
  readonly createBatch?: () => BatchWriter;
  /** Runs for every event of the log, known or not, before the typed handlers (e.g. a probe in tests). */
  readonly everyEvent?: (event: RecordedEvent, db: ProjectionDb) => void | Promise<void>;
}

export function defineProjection(definition: Projection): Projection {
  if (!/^[a-z_][a-z0-9_]*$/.test(definition.name)) throw new ProjectionError(`A projection's name is a lower-case identifier, got ${JSON.stringify(definition.name)}`);
  return definition;
}

/** Every table a projection writes: its row tables and its statement tables. */
export function tablesWritten(projection: Projection): string[] {
  return [...Object.keys(projection.tables), ...(projection.statementTables ?? [])];
}

/** The user id of a `customer-<id>` or `account-<id>` stream. */
export function streamOwner(event: Pick<ProjectedEvent, 'streamId'>): string {
  const dash = event.streamId.indexOf('-');
  const id = dash < 0 ? '' : event.streamId.slice(dash + 1);
  if (!id) throw new ProjectionError(`Stream ${event.streamId} names no owner`);
  return id;
}
