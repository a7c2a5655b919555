import { formatPosition, type RecordedEvent } from '@bank/eventstore';
import type pg from 'pg';
import { advanceCheckpoint, CheckpointMovedError, lockCheckpoint } from '../checkpoint/checkpointStore';
import { LOCK_SQL, lockArgs } from '../locks/advisoryLocks';
import { checkedUpdateSql, type ProjectionDb } from '../projections/projection';
import type { ReadModelTables } from '../schema/readModelTables';
import { EventApplyError, isTransientDatabaseError, type EventDispatcher } from './eventDispatcher';
import { StatementBatch } from './statementBatch';

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
   * Commit without waiting for the WAL flush (a rebuild's catch-up into its own schema: a crash loses at most the
   * last batches of a build that is started again anyway).
   */
  readonly asyncCommit?: boolean;
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
 * The projections' writes are sent together (one round trip per batch). When the server refuses them, the batch is
 * rolled back and applied again event by event, so that the error names the event that cannot be applied.
 */
export async function applyBatch(
  client: pg.ClientBase,
  target: BatchTarget,
  events: readonly RecordedEvent[],
  expected: string | null,
  options: { readonly inTransaction?: boolean } = {},
): Promise<BatchResult> {
  if (options.inTransaction) return applyInTransaction(client, target, events, expected, 'batched');
  try {
    return await ownTransaction(client, () => applyInTransaction(client, target, events, expected, 'batched'));
  } catch (error) {
    if (error instanceof EventApplyError || error instanceof CheckpointMovedError || isTransientDatabaseError(error)) throw error;
    return ownTransaction(client, () => applyInTransaction(client, target, events, expected, 'per-event'));
  }
}

async function ownTransaction<T>(client: pg.ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
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
  mode: 'batched' | 'per-event',
): Promise<BatchResult> {
  const last = events.at(-1);
  if (!last) throw new RangeError('applyBatch needs at least one event');
  const batch = new StatementBatch(client);
  /** Rows the batch's updates need, checked after its writes: table → id column → ids → first message. */
  const required = new Map<string, { idColumn: string; ids: Map<string, string> }>();
  const db: ProjectionDb = {
    tables: target.tables,
    execute: async (text, values) => {
      batch.add(text, values ?? []);
      if (mode === 'per-event') await batch.flush();
    },
    updateExisting: async (update) => {
      if (mode === 'per-event') {
        const checked = checkedUpdateSql(target.tables.schema, update);
        batch.add(checked.text, checked.values);
        await batch.flush();
        return;
      }
      batch.add(update.sql, update.values);
      const entry = required.get(update.table) ?? { idColumn: update.idColumn, ids: new Map<string, string>() };
      if (!entry.ids.has(update.id)) entry.ids.set(update.id, update.message);
      required.set(update.table, entry);
    },
    query: async (text, values) => {
      await batch.flush();
      return client.query(text, values as unknown[]);
    },
  };
  if (target.asyncCommit) await client.query('SET LOCAL synchronous_commit TO OFF');
  if (target.applyLock) await client.query(LOCK_SQL.xactLock, lockArgs('apply', target.name));
  await lockCheckpoint(client, target.tables, target.name, expected);
  let unknown = 0;
  for (const event of events) {
    if ((await target.dispatcher.dispatch(event, db)) === 'unknown') unknown += 1;
    if (batch.full) await batch.flush();
  }
  await batch.flush();
  await checkRequiredRows(client, required);
  await advanceCheckpoint(client, target.tables, target.name, expected, last.position, events.length, last.created);
  const position = formatPosition(last.position);
  if (target.notifyChannel) await client.query('SELECT pg_notify($1, $2)', [target.notifyChannel, `${target.name} ${position}`]);
  return { position, events: events.length, unknown };
}

/** After a batch's writes: every row an update needed exists (else the batch is retried event by event). */
async function checkRequiredRows(client: pg.ClientBase, required: Map<string, { idColumn: string; ids: Map<string, string> }>): Promise<void> {
  for (const [table, { idColumn, ids }] of required) {
    const wanted = [...ids.keys()];
    const { rows } = await client.query<{ id: string }>(`SELECT ${idColumn}::text AS id FROM ${table} WHERE ${idColumn} = ANY($1::uuid[])`, [wanted]);
    if (rows.length === wanted.length) continue;
    const found = new Set(rows.map((row) => row.id.toLowerCase()));
    const missing = wanted.find((id) => !found.has(id.toLowerCase()));
    throw new MissingRowError(ids.get(missing!) ?? `a ${table} row does not exist`);
  }
}

/** An update in a batch needed a row that does not exist. */
export class MissingRowError extends Error {
  override readonly name = 'MissingRowError';
}
