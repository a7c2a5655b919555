import { ProjectionError } from '../projections/projectionError';
import { HeldColumn } from './heldColumn';
import { HeldPositions } from './heldPositions';
import type { TableInfo } from './tableCatalog';
import {
  checkColumnsOf,
  checkUpdate,
  keyNormalizer,
  keyOfRow,
  TableChanges,
  type ChangeSource,
  type FoldedTable,
  type KeyChanges,
  type NewRow,
  type Row,
} from './tableChanges';

/** Slots made room for at first; the columns double as rows come. */
const FIRST_CAPACITY = 1_024;

/**
 * The rows of a table a rebuild holds over its whole load (heldDuringRebuild, see bulkLoad), kept by column: one
 * slot per row, its values in the columns' arrays (HeldColumn) and its position in HeldPositions. It folds exactly
 * as `TableChanges` with `fresh` does (the table holds no row before: an update of a row inserted here is merged into
 * it at once), but without an object per row: at a million customers the balances' rows were 1.4 GB of objects and
 * strings that every full collection walked, and each balance update pointed an old row at two young strings (the
 * event's instant and position) that the scavenger then had to promote. Rows are made as objects only when written.
 *
 * A key whose first change is an update has no row here (the table was empty): its changes are folded by a
 * TableChanges of their own, as before, and its row must exist when the table is written (it cannot, so the write
 * names the event that needed it).
 */
export class HeldTable implements FoldedTable {
  private readonly slots = new Map<string, number>();
  /** The keys as the projections gave them, by slot. */
  private readonly keys: string[] = [];
  private readonly columns = new Map<string, HeldColumn>();
  /** The columns in the order they were first set: a row's columns are written in this order. */
  private readonly order: HeldColumn[] = [];
  private readonly positions = new HeldPositions(FIRST_CAPACITY);
  private capacity = FIRST_CAPACITY;
  private readonly normalizeKey: (key: string) => string;
  /** Keys whose first change was an update. */
  private readonly orphans: TableChanges;

  constructor(
    readonly info: TableInfo,
    readonly positionColumn: string,
  ) {
    if (!info.columns.has(positionColumn)) throw new ProjectionError(`Table ${info.qualified} has no position column ${positionColumn}`);
    this.normalizeKey = keyNormalizer(info);
    this.orphans = new TableChanges(info, positionColumn, { fresh: true });
  }

  get size(): number {
    return this.keys.length + this.orphans.size;
  }

  insert(row: Row, position: string): void {
    const key = keyOfRow(this.info, row);
    const id = this.normalizeKey(key);
    if (this.slots.has(id)) return;
    if (this.orphans.size > 0 && this.orphans.has(id)) return this.orphans.insert(row, position);
    const slot = this.keys.length;
    if (slot === this.capacity) this.grow();
    this.slots.set(id, slot);
    this.keys.push(key);
    for (const name in row) this.column(name).set(slot, row[name]);
    this.positions.set(slot, position);
  }

  update(key: string, set: Row, position: string, source: ChangeSource): void {
    checkUpdate(this.info, this.positionColumn, key, set);
    const slot = this.slots.get(this.normalizeKey(key));
    if (slot === undefined) return this.orphans.update(key, set, position, source);
    // What TableChanges merges into a fresh row: the updates after the row's position, in order.
    if (!this.positions.advance(slot, position)) return;
    for (const name in set) this.column(name).set(slot, set[name]);
  }

  upsert(row: Row, position: string, source: ChangeSource): void {
    this.insert(row, position);
    const { [this.info.key]: key, ...set } = row;
    this.update(key as string, set, position, source);
  }

  *newRows(): Generator<NewRow> {
    for (let slot = 0; slot < this.keys.length; slot += 1) {
      const row: Record<string, unknown> = {};
      for (const column of this.order) if (column.has(slot)) row[column.name] = column.get(slot);
      yield { key: this.keys[slot]!, row, position: this.positions.get(slot) };
    }
    yield* this.orphans.newRows();
  }

  keysToUpdate(onlyRequired: boolean): Iterable<KeyChanges> {
    return this.orphans.keysToUpdate(onlyRequired);
  }

  required(): Iterable<{ key: string; source: ChangeSource }> {
    return this.orphans.required();
  }

  checkColumns(columns: Iterable<string>): void {
    checkColumnsOf(this.info, columns);
  }

  private column(name: string): HeldColumn {
    let column = this.columns.get(name);
    if (!column) {
      column = new HeldColumn(name, this.info.columns.get(name), this.capacity);
      this.columns.set(name, column);
      this.order.push(column);
    }
    return column;
  }

  private grow(): void {
    this.capacity *= 2;
    for (const column of this.order) column.grow(this.capacity);
    this.positions.grow(this.capacity);
  }
}
