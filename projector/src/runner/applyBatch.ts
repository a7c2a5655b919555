import { formatPosition, type RecordedEvent } from '@bank/eventstore';
import type pg from 'pg';
import { BatchChanges, createWriteLayout, type WriteLayout } from '../changes/batchChanges';
import { tableStatement } from '../changes/changeStatements';
import { preparedStatementsOf, type PreparedStatements } from '../changes/preparedStatements';
import { renderStatement } from '../changes/sqlLiterals';
import { loadTableCatalog } from '../changes/tableCatalog';
import type { FoldedTable } from '../changes/tableChanges';
import { writeChanges } from '../changes/writeChanges';
import {
  advanceCheckpoint,
  advanceCheckpointStatement,
  CHECKPOINT_MOVED_MESSAGE,
  CheckpointMovedError,
  lockCheckpoint,
  lockCheckpointStatement,
  readCheckpoint,
} from '../checkpoint/checkpointStore';
import { LOCK_SQL, lockArgs } from '../locks/advisoryLocks';
import type { ReadModelTables } from '../schema/readModelTables';
import { EventApplyError, isTransientDatabaseError, type EventDispatcher } from './eventDispatcher';

export interface BatchTarget {
  readonly tables: ReadModelTables;
  /** Projector / checkpoint name. */
  readonly name: string;
  readonly dispatcher: EventDispatcher;
  /** Take the projector's apply lock first (the live projector does; a rebuild's catch-up into its own schema does not). */
  readonly applyLock: boolean;
  /** NOTIFY this channel with `<name> <position>` when the checkpoint advances (the live schema only). */
  readonly notifyChannel?: string;
  /**
   * Commit without waiting for the WAL flush. The read models are derived data and each batch commits with its
   * checkpoint: a crash of the server loses at most the last batches and their checkpoint together, which are
   * applied again from the log (never twice, never lost). Not waiting keeps the flush's latency out of the lag.
   */
  readonly asyncCommit?: boolean;
  /** The tables the projections write, read from the schema's catalog once. */
  layout(client: pg.ClientBase): Promise<WriteLayout>;
}

export function createBatchTarget(options: Omit<BatchTarget, 'layout'>): BatchTarget {
  let layout: Promise<WriteLayout> | undefined;
  return {
    ...options,
    layout(client) {
      layout ??= loadTableCatalog(client, options.tables.schemaName).then((catalog) => createWriteLayout(options.dispatcher.projections, catalog, options.tables));
      layout.catch(() => (layout = undefined));
      return layout;
    },
  };
}

export interface BatchResult {
  /** The new checkpoint (formatted). */
  readonly position: string;
  readonly events: number;
  readonly unknown: number;
}

/**
 * Applies events and advances the checkpoint from `expected` in ONE transaction: a crash leaves either all of the
 * batch applied with the new checkpoint, or none of it. With `inTransaction` the caller owns BEGIN/COMMIT.
 *
 * The projections' changes are folded in memory first (before the transaction: it stays short), then the whole
 * transaction goes to the server as one simple query — BEGIN, the apply lock, the checkpoint check, one statement
 * per table changed, the checkpoint's advance, NOTIFY, COMMIT: one round trip per batch. When the server refuses
 * it, the batch is applied again statement by statement, which names the event whose update found no row, and
 * when the server refuses that too, event by event, which names the event it cannot apply.
 */
export async function applyBatch(
  client: pg.ClientBase,
  target: BatchTarget,
  events: readonly RecordedEvent[],
  expected: string | null,
  options: { readonly inTransaction?: boolean } = {},
): Promise<BatchResult> {
  const last = events.at(-1);
  if (!last) throw new RangeError('applyBatch needs at least one event');
  const layout = await target.layout(client);
  const changes = new BatchChanges(layout);
  const unknown = await target.dispatcher.fold(events, changes);
  const result: BatchResult = { position: formatPosition(last.position), events: events.length, unknown };
  const write = () => writeChanges(client, changes);
  if (options.inTransaction) {
    await applyInTransaction(client, target, events, expected, write);
    return result;
  }
  const prepared = preparedStatementsOf(client);
  try {
    await client.query(batchScript(prepared, target, changes, events, expected));
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    await prepared.discard(client).catch(() => undefined);
    if (isTransientDatabaseError(error)) throw error;
    if ((error as Error).message === CHECKPOINT_MOVED_MESSAGE) {
      const actual = await readCheckpoint(client, target.tables, target.name);
      if (actual !== expected) throw new CheckpointMovedError(target.name, expected, actual);
    }
  }
  try {
    await ownTransaction(client, target, () => applyInTransaction(client, target, events, expected, write));
  } catch (error) {
    if (error instanceof EventApplyError || error instanceof CheckpointMovedError || isTransientDatabaseError(error)) throw error;
    await ownTransaction(client, target, () => applyInTransaction(client, target, events, expected, () => writeEventByEvent(client, target.dispatcher, layout, events)));
  }
  return result;
}

/**
 * The batch's whole transaction as one simple query (statements separated by semicolons): the table statements and
 * the projections' own and the checkpoint's lock and advance as EXECUTEs of statements prepared on this connection
 * (PreparedStatements: each shape planned once, not once per batch), the rest with their values inlined.
 */
function batchScript(prepared: PreparedStatements, target: BatchTarget, changes: BatchChanges, events: readonly RecordedEvent[], expected: string | null): string {
  const { tables, name } = target;
  const last = events.at(-1)!;
  const parts: string[] = [];
  prepared.begin(parts, last.position.prepare);
  parts.push('BEGIN');
  if (target.asyncCommit) parts.push('SET LOCAL synchronous_commit TO OFF');
  parts.push('SET LOCAL plan_cache_mode TO force_generic_plan');
  if (target.applyLock) parts.push(renderStatement(LOCK_SQL.xactLock, lockArgs('apply', name)));
  prepared.add(lockCheckpointStatement(tables, name, expected), parts);
  for (const table of changes.byTable.values()) {
    const statement = tableStatement(table, { raisingIn: tables.schema });
    if (statement) prepared.add(statement, parts);
  }
  for (const statement of changes.allStatements()) prepared.add(statement, parts);
  prepared.add(advanceCheckpointStatement(tables, { name, expected, next: last.position, applied: events.length, lastEventCreated: last.created }), parts);
  if (target.notifyChannel) parts.push(renderStatement('SELECT pg_notify($1, $2)', [target.notifyChannel, `${name} ${formatPosition(last.position)}`]));
  parts.push('COMMIT');
  return parts.join(';\n');
}

async function ownTransaction<T>(client: pg.ClientBase, target: BatchTarget, work: () => Promise<T>): Promise<T> {
  await client.query(target.asyncCommit ? 'BEGIN; SET LOCAL synchronous_commit TO OFF' : 'BEGIN');
  try {
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function applyInTransaction(
  client: pg.ClientBase,
  target: BatchTarget,
  events: readonly RecordedEvent[],
  expected: string | null,
  write: () => Promise<void>,
): Promise<void> {
  const last = events.at(-1)!;
  if (target.applyLock) await client.query(LOCK_SQL.xactLock, lockArgs('apply', target.name));
  await lockCheckpoint(client, target.tables, target.name, expected);
  await write();
  await advanceCheckpoint(client, target.tables, { name: target.name, expected, next: last.position, applied: events.length, lastEventCreated: last.created });
  if (target.notifyChannel) await client.query('SELECT pg_notify($1, $2)', [target.notifyChannel, `${target.name} ${formatPosition(last.position)}`]);
}

/** A batch again, each event folded and written on its own (in the caller's transaction): the first that fails is named. */
export async function writeEventByEvent(
  client: pg.ClientBase,
  dispatcher: EventDispatcher,
  layout: WriteLayout,
  events: readonly RecordedEvent[],
  held?: ReadonlyMap<string, FoldedTable>,
): Promise<void> {
  for (const event of events) {
    const changes = new BatchChanges(layout, held);
    await dispatcher.fold([event], changes);
    try {
      await writeChanges(client, changes);
    } catch (error) {
      if (error instanceof EventApplyError || isTransientDatabaseError(error)) throw error;
      throw new EventApplyError(event, error);
    }
  }
}
