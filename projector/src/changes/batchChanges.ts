import type { BatchWriter, Projection, ProjectionDb } from '../projections/projection';
import { ProjectionError } from '../projections/projectionError';
import type { ReadModelTables } from '../schema/readModelTables';
import type { Statement } from './changeStatements';
import type { TableCatalog, TableInfo } from './tableCatalog';
import { TableChanges, type ChangeSource, type FoldedTable, type Row } from './tableChanges';

/** The tables a set of projections writes in one schema, checked against the schema's catalog. */
export interface WriteLayout {
  readonly tables: ReadModelTables;
  readonly projections: readonly Projection[];
  /**
   * Table name → its catalog entry, position column, whether a rebuild holds its rows (heldDuringRebuild), and
   * whether its rows are inserted once and never upserted (keyAfterLoad).
   */
  readonly writable: ReadonlyMap<string, { readonly info: TableInfo; readonly positionColumn: string; readonly held: boolean; readonly keyAfterLoad: boolean }>;
}

export function createWriteLayout(projections: readonly Projection[], catalog: TableCatalog, tables: ReadModelTables): WriteLayout {
  const writable = new Map<string, { info: TableInfo; positionColumn: string; held: boolean; keyAfterLoad: boolean }>();
  const byStatements = new Set(projections.flatMap((projection) => projection.statementTables ?? []));
  for (const projection of projections) {
    for (const [name, declared] of Object.entries(projection.tables)) {
      const info = catalog.get(name);
      if (!info) throw new ProjectionError(`Projection ${projection.name} writes ${name}, which is not a table of ${tables.schema} with a one-column primary key`);
      const positionColumn = declared.positionColumn ?? 'last_position';
      const known = writable.get(name);
      if (known && known.positionColumn !== positionColumn) throw new ProjectionError(`Projections disagree on the position column of ${name}`);
      if (!info.columns.has(positionColumn)) throw new ProjectionError(`Table ${info.qualified} has no position column ${positionColumn}`);
      const keyAfterLoad = (known?.keyAfterLoad ?? false) || declared.keyAfterLoad === true;
      if (keyAfterLoad && byStatements.has(name)) throw new ProjectionError(`${name} is written by statements, so its key cannot be built after a rebuild's load (keyAfterLoad)`);
      writable.set(name, { info, positionColumn, held: (known?.held ?? false) || declared.heldDuringRebuild === true, keyAfterLoad });
    }
  }
  return { tables, projections, writable };
}

/** Everything one batch does to the read models, folded in memory (see TableChanges), and its raw statements. */
export class BatchChanges {
  readonly byTable = new Map<string, TableChanges>();
  /** The projections' `execute` statements, in event order. */
  readonly statements: Statement[] = [];
  /** The projections' batch writers (ProjectionDb.batch), made at their first use in the batch. */
  readonly writers = new Map<Projection, BatchWriter>();
  private readonly contexts = new Map<Projection, ProjectionContext>();
  /**
   * A rebuild's bulk load: what the batch before handed over (BatchWriter.handOver), already given to this batch's
   * writers; kept to write it on its own when the batch is written again event by event.
   */
  handedIn: ReadonlyMap<Projection, unknown> = new Map();

  /**
   * @param held tables whose changes go into these folded tables, kept by the caller across batches, instead of
   *   this batch's own (a rebuild's held tables: they are written once, at the end of the load, not per batch).
   */
  constructor(
    readonly layout: WriteLayout,
    private readonly held?: ReadonlyMap<string, FoldedTable>,
  ) {}

  /** The `db` a projection's handler gets for the event `source`. */
  contextFor(projection: Projection, source: ChangeSource): ProjectionDb {
    let context = this.contexts.get(projection);
    if (!context) {
      context = new ProjectionContext(this, projection);
      this.contexts.set(projection, context);
    }
    context.source = source;
    return context;
  }

  /** True when nothing is to be written. */
  get empty(): boolean {
    return this.statements.length === 0 && this.writers.size === 0 && [...this.byTable.values()].every((table) => table.size === 0);
  }

  /** The statements of the batch writers then the projections' own (`execute`), in the order they run. */
  allStatements(): Statement[] {
    const statements: Statement[] = [];
    for (const writer of this.writers.values()) statements.push(...writer.statements(this.layout.tables));
    statements.push(...this.statements);
    return statements;
  }

  writerFor(projection: Projection): BatchWriter {
    let writer = this.writers.get(projection);
    if (!writer) {
      if (!projection.createBatch) throw new ProjectionError(`Projection ${projection.name} has no batch writer (createBatch)`);
      writer = projection.createBatch();
      this.writers.set(projection, writer);
    }
    return writer;
  }

  table(name: string): FoldedTable {
    const held = this.held?.get(name);
    if (held) return held;
    let changes = this.byTable.get(name);
    if (!changes) {
      const entry = this.layout.writable.get(name);
      if (!entry) throw new ProjectionError(`No projection writes a table ${name}`);
      changes = new TableChanges(entry.info, entry.positionColumn);
      this.byTable.set(name, changes);
    }
    return changes;
  }
}

/** A projection's view of the batch: its own tables only, each change stamped with the current event's position. */
class ProjectionContext implements ProjectionDb {
  /** The event being applied (set before each handler call). */
  source!: ChangeSource;

  constructor(
    private readonly changes: BatchChanges,
    private readonly projection: Projection,
  ) {}

  get tables(): ReadModelTables {
    return this.changes.layout.tables;
  }

  insert(table: string, row: Row): void {
    this.own(table).insert(row, this.source.positionText);
  }

  update(table: string, key: string, set: Row): void {
    this.own(table).update(key, set, this.source.positionText, this.source);
  }

  upsert(table: string, row: Row): void {
    if (this.changes.layout.writable.get(table)?.keyAfterLoad) throw new ProjectionError(`${table} takes each row's insert once (keyAfterLoad): upsert is refused`);
    this.own(table).upsert(row, this.source.positionText, this.source);
  }

  execute(text: string, values: readonly unknown[] = []): void {
    this.changes.statements.push({ text, values: [...values] });
  }

  batch<T extends BatchWriter>(): T {
    return this.changes.writerFor(this.projection) as T;
  }

  private own(table: string): FoldedTable {
    if (!Object.hasOwn(this.projection.tables, table)) throw new ProjectionError(`Projection ${this.projection.name} does not declare the table ${table} it writes`);
    return this.changes.table(table);
  }
}
