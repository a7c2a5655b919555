import type { RecordedEvent } from '@bank/eventstore';
import { ProjectionError } from '../projections/projectionError';
import type { TableInfo } from './tableCatalog';

/** A row (or part of one) as a projection writes it: column name → value. */
export type Row = Readonly<Record<string, unknown>>;

/** The event a change came from, named when the change cannot be applied. */
export interface ChangeSource {
  readonly type: string;
  readonly streamId: string;
  readonly positionText: string;
  readonly recorded: RecordedEvent;
}

/** An update kept in a batch: its columns and position. */
export interface KeptUpdate {
  readonly set: Row;
  readonly position: string;
}

/**
 * Everything a batch does to one row, folded. The fold reproduces exactly what applying the batch's changes one
 * by one would do, whatever the row held before the batch (absent, or present with any `last_position`):
 *
 * - an insert does nothing when the row exists (`ON CONFLICT DO NOTHING`); only the first change of a key in the
 *   batch can be an insert that matters: after any earlier change the row exists (or the batch fails);
 * - an update sets its columns when its position is greater than the row's position, and moves the row's position
 *   to its own. Within the batch an update at or before the last update kept is skipped (it would find the row's
 *   position at least as far); every other update is kept. Applied to a row at position L, the kept updates after
 *   L are exactly those one-by-one application would apply, so per column: "the last kept value if its position
 *   > L, else the row's value";
 * - for a row the batch inserts, L is the insert's position: the row is written once, already merged.
 */
export interface KeyChanges {
  /** The key as the projection gave it. */
  readonly key: string;
  /** The inserted row, when the key's first change in the batch was an insert. */
  readonly insert: Row | undefined;
  /** The insert's position (in a fresh table, that of the last update merged into the row). */
  insertPosition: string;
  /** When the key's first change was an update: the row must exist before the batch; this event needed it. */
  readonly requiredBy: ChangeSource | undefined;
  /** The updates kept, in order (positions increasing). */
  updates: KeptUpdate[] | undefined;
  /** Position of the last update kept ('' when none). */
  updatedAt: string;
}

/** Per column, the last value the kept updates set and that update's position. */
export function lastValues(entry: Pick<KeyChanges, 'updates'>): Map<string, { value: unknown; position: string }> {
  const values = new Map<string, { value: unknown; position: string }>();
  for (const { set, position } of entry.updates ?? []) {
    for (const column in set) values.set(column, { value: set[column], position });
  }
  return values;
}

/** A row the batch inserts, merged with the updates that follow its insert. */
export interface NewRow {
  readonly key: string;
  /** Its columns but the position column. */
  readonly row: Row;
  /** Its position column's value. */
  readonly position: string;
}

/**
 * A table's changes folded: what a batch's writers read (changeStatements, writeChanges) and what the projections
 * write through (ProjectionDb). TableChanges for a batch; HeldTable for a table a rebuild holds over its load.
 */
export interface FoldedTable {
  readonly info: TableInfo;
  /** The column holding the position of the last event that changed a row (`last_position`). */
  readonly positionColumn: string;
  /** Keys changed. */
  readonly size: number;
  /** Inserts `row` (with its key column) unless its key exists; the row's position column is set to `position`. */
  insert(row: Row, position: string): void;
  /** Sets `set`'s columns of the row `key` if `position` is after the row's; the row must exist. */
  update(key: string, set: Row, position: string, source: ChangeSource): void;
  /** Inserts `row`, or sets all its columns when `position` is after the existing row's. */
  upsert(row: Row, position: string, source: ChangeSource): void;
  /** The rows inserted, each merged with the updates kept after its insert. */
  newRows(): Iterable<NewRow>;
  /** The keys whose updates must be applied to rows that exist before (see TableChanges.keysToUpdate). */
  keysToUpdate(onlyRequired: boolean): Iterable<KeyChanges>;
  /** The keys that must exist before, with the first event that needed each. */
  required(): Iterable<{ key: string; source: ChangeSource }>;
  /** Throws unless the table has every one of these columns. */
  checkColumns(columns: Iterable<string>): void;
}

/** Updates kept for a key before they are folded (foldUpdates). */
const FOLD_UPDATES_AT = 16;

/**
 * A key's kept updates folded to the last value of each column, with that update's position, in position order:
 * everything the writes read from them (per column, the last value and its position; the last position), so the
 * batch writes exactly what it would have written from every update. Changes kept over many batches (a rebuild's
 * held table, see bulkLoad) so keep a few updates per key, not every one.
 */
function foldUpdates(updates: KeptUpdate[]): KeptUpdate[] {
  const byPosition = new Map<string, Record<string, unknown>>();
  for (const [column, { value, position }] of lastValues({ updates })) {
    let set = byPosition.get(position);
    if (!set) byPosition.set(position, (set = {}));
    set[column] = value;
  }
  return [...byPosition].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([position, set]) => ({ set, position }));
}

/** The key's new row merged with the updates kept after its insert (undefined when its first change was an update). */
function rowOf(entry: KeyChanges): NewRow | undefined {
  const { insert, insertPosition } = entry;
  if (!insert) return undefined;
  if (entry.updatedAt <= insertPosition) return { key: entry.key, row: insert, position: insertPosition };
  const merged: Record<string, unknown> = { ...insert };
  for (const { set, position } of entry.updates!) {
    if (position <= insertPosition) continue;
    for (const column in set) merged[column] = set[column];
  }
  return { key: entry.key, row: merged, position: entry.updatedAt };
}

/** Keys as the database compares them: a uuid in any letter case is one row. */
export function keyNormalizer(info: TableInfo): (key: string) => string {
  return info.columns.get(info.key)!.type === 'uuid' ? (key) => key.toLowerCase() : (key) => key;
}

/** The key of a row a projection inserts; it must have one. */
export function keyOfRow(info: TableInfo, row: Row): string {
  const key = row[info.key];
  if (typeof key !== 'string' || key === '') throw new ProjectionError(`A row of ${info.qualified} needs its key ${info.key}`);
  return key;
}

/** Refuses an update without a key, or one that would change the key or the position column. */
export function checkUpdate(info: TableInfo, positionColumn: string, key: string, set: Row): void {
  if (typeof key !== 'string' || key === '') throw new ProjectionError(`An update of ${info.qualified} needs a key`);
  if (info.key in set || positionColumn in set) throw new ProjectionError(`An update of ${info.qualified} cannot set ${info.key} or ${positionColumn}`);
}

/** Throws unless the table has every one of these columns. */
export function checkColumnsOf(info: TableInfo, columns: Iterable<string>): void {
  for (const column of columns) {
    if (!info.columns.has(column)) throw new ProjectionError(`Table ${info.qualified} has no column ${column}`);
  }
}

/** The folded changes of one batch to one table. */
export class TableChanges implements FoldedTable {
  private readonly keys = new Map<string, KeyChanges>();
  private readonly normalizeKey: (key: string) => string;

  /**
   * @param options.fresh the table holds no row before these changes (a rebuild's held table, see bulkLoad): an
   *   update of a row inserted here is merged into it at once, instead of kept, so a row costs the same however many
   *   updates it takes. (Where rows may exist before, the updates are kept: an insert may meet an existing row.)
   */
  constructor(
    readonly info: TableInfo,
    /** The column holding the position of the last event that changed a row (`last_position`). */
    readonly positionColumn: string,
    private readonly options: { readonly fresh?: boolean } = {},
  ) {
    if (!info.columns.has(positionColumn)) throw new ProjectionError(`Table ${info.qualified} has no position column ${positionColumn}`);
    this.normalizeKey = keyNormalizer(info);
  }

  get size(): number {
    return this.keys.size;
  }

  /** True when the batch has changed the row `key`. */
  has(key: string): boolean {
    return this.keys.has(this.normalizeKey(key));
  }

  /** Inserts `row` (with its key column) unless its key exists; the row's position column is set to `position`. */
  insert(row: Row, position: string): void {
    const key = keyOfRow(this.info, row);
    const id = this.normalizeKey(key);
    if (this.keys.has(id)) return;
    // A fresh table's row is merged into: its own copy.
    this.keys.set(id, { key, insert: this.options.fresh ? { ...row } : row, insertPosition: position, requiredBy: undefined, updates: undefined, updatedAt: '' });
  }

  /** Sets `set`'s columns of the row `key` if `position` is after the row's; the row must exist. */
  update(key: string, set: Row, position: string, source: ChangeSource): void {
    checkUpdate(this.info, this.positionColumn, key, set);
    const id = this.normalizeKey(key);
    let entry = this.keys.get(id);
    if (!entry) {
      entry = { key, insert: undefined, insertPosition: '', requiredBy: source, updates: undefined, updatedAt: '' };
      this.keys.set(id, entry);
    }
    if (this.options.fresh && entry.insert) {
      // What newRows would merge: the updates after the row's position, in order.
      if (position <= entry.insertPosition) return;
      Object.assign(entry.insert as Record<string, unknown>, set);
      entry.insertPosition = position;
      return;
    }
    if (position <= entry.updatedAt) return;
    entry.updatedAt = position;
    (entry.updates ??= []).push({ set, position });
    if (entry.updates.length >= FOLD_UPDATES_AT) entry.updates = foldUpdates(entry.updates);
  }

  /** Inserts `row`, or sets all its columns when `position` is after the existing row's. */
  upsert(row: Row, position: string, source: ChangeSource): void {
    this.insert(row, position);
    const { [this.info.key]: key, ...set } = row;
    this.update(key as string, set, position, source);
  }

  /** The rows the batch inserts, each merged with the updates kept after its insert. */
  *newRows(): Generator<NewRow> {
    for (const entry of this.keys.values()) {
      const row = rowOf(entry);
      if (row) yield row;
    }
  }

  /**
   * The keys whose updates must be applied to rows that exist before the batch: those whose first change was an
   * update, and (unless `onlyRequired`) those the batch inserts, in case the row existed already (a replay).
   */
  *keysToUpdate(onlyRequired: boolean): Generator<KeyChanges> {
    for (const entry of this.keys.values()) {
      if (entry.updatedAt === '') continue;
      if (onlyRequired && entry.insert) continue;
      yield entry;
    }
  }

  /** The keys that must exist before the batch, with the first event that needed each. */
  *required(): Generator<{ key: string; source: ChangeSource }> {
    for (const entry of this.keys.values()) if (entry.requiredBy) yield { key: entry.key, source: entry.requiredBy };
  }

  /** Throws unless the table has every one of these columns (checked once per set of columns when writing). */
  checkColumns(columns: Iterable<string>): void {
    checkColumnsOf(this.info, columns);
  }
}
