import type { RecordedEvent } from '@bank/eventstore';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tableStatement } from './changeStatements';
import type { TableInfo } from './tableCatalog';
import { HeldTable } from './heldTable';
import { lastValues, TableChanges, type ChangeSource, type FoldedTable } from './tableChanges';

const info: TableInfo = {
  name: 't',
  qualified: '"rm".t',
  key: 'id',
  columns: new Map(['id', 'a', 'b', 'c', 'last_position'].map((name) => [name, { name, type: name === 'id' ? 'uuid' : 'text' }])),
};
const source = (position: string): ChangeSource => ({ type: 'Test', streamId: 's', positionText: position, recorded: {} as RecordedEvent });

type Row = Record<string, string | null>;
type Op =
  | { kind: 'insert'; key: string; row: Row; position: string }
  | { kind: 'update'; key: string; set: Row; position: string }
  | { kind: 'upsert'; key: string; row: Row; position: string };

/** What applying the operations one at a time, each as its own statement, does (the reference semantics). */
function oneByOne(initial: Map<string, Row>, ops: readonly Op[]): Map<string, Row> | 'missing' {
  const rows = new Map([...initial].map(([key, row]) => [key, { ...row }]));
  for (const op of ops) {
    const row = rows.get(op.key);
    if (op.kind === 'insert' || (op.kind === 'upsert' && !row)) {
      if (!row) rows.set(op.key, { ...op.row, id: op.key, last_position: op.position });
      continue;
    }
    if (!row) return 'missing';
    if (row.last_position! < op.position) Object.assign(row, op.kind === 'update' ? op.set : op.row, { last_position: op.position });
  }
  return rows;
}

/**
 * What the writer's statement does with the folded changes (the SQL of changeStatements, simulated): the new rows
 * are inserted unless their key exists; the updates apply, per column, to the rows that existed before it.
 */
function folded(initial: Map<string, Row>, ops: readonly Op[], options: { fresh?: boolean } | (() => FoldedTable) = {}): Map<string, Row> | 'missing' {
  const changes = typeof options === 'function' ? options() : new TableChanges(info, 'last_position', options);
  for (const op of ops) {
    if (op.kind === 'insert') changes.insert({ ...op.row, id: op.key }, op.position);
    else if (op.kind === 'update') changes.update(op.key, op.set, op.position, source(op.position));
    else changes.upsert({ ...op.row, id: op.key }, op.position, source(op.position));
  }
  for (const { key } of changes.required()) if (!initial.has(key)) return 'missing';
  const rows = new Map([...initial].map(([key, row]) => [key, { ...row }]));
  for (const { key, row, position: at } of changes.newRows()) if (!rows.has(key)) rows.set(key, { ...(row as Row), last_position: at });
  for (const entry of changes.keysToUpdate(false)) {
    const row = initial.has(entry.key) ? rows.get(entry.key)! : undefined;
    if (!row || !(row.last_position! < entry.updatedAt)) continue;
    const before = row.last_position!;
    for (const [column, patch] of lastValues(entry)) if (before < patch.position) row[column] = patch.value as string;
    row.last_position = entry.updatedAt;
  }
  return rows;
}

const keys = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000003'];
const position = fc.integer({ min: 1, max: 12 }).map((n) => `p${String(n).padStart(3, '0')}`);
const value = fc.constantFrom('x', 'y', 'z', null);
const partialRow = fc.record({ a: value, b: value, c: value }, { requiredKeys: [] }) as fc.Arbitrary<Row>;
const fullRow = fc.record({ a: value, b: value, c: value }) as fc.Arbitrary<Row>;
const key = fc.constantFrom(...keys);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), key, row: fullRow, position }),
  fc.record({ kind: fc.constant('update' as const), key, set: partialRow.filter((row) => Object.keys(row).length > 0), position }),
  fc.record({ kind: fc.constant('upsert' as const), key, row: fullRow, position }),
);
const initial = fc
  .uniqueArray(fc.record({ key, row: fullRow, position }), { selector: (entry) => entry.key, maxLength: 3 })
  .map((entries) => new Map(entries.map((entry) => [entry.key, { ...entry.row, id: entry.key, last_position: entry.position }])));

describe('folding a batch of row changes', () => {
  it('gives what applying them one by one gives, whatever the rows held before and whatever the order of positions', () => {
    fc.assert(
      fc.property(initial, fc.array(op, { maxLength: 12 }), (before, ops) => {
        expect(folded(before, ops)).toEqual(oneByOne(before, ops));
      }),
      { numRuns: 5_000 },
    );
  });

  it('gives the same as any split of the changes into consecutive batches', () => {
    fc.assert(
      fc.property(initial, fc.array(op, { maxLength: 12 }), fc.array(fc.nat(12)), (before, ops, cuts) => {
        const bounds = [...new Set([0, ...cuts.filter((cut) => cut < ops.length), ops.length])].sort((x, y) => x - y);
        let state: Map<string, Row> | 'missing' = before;
        for (let i = 0; i + 1 < bounds.length && state !== 'missing'; i += 1) state = folded(state, ops.slice(bounds[i], bounds[i + 1]));
        expect(state).toEqual(oneByOne(before, ops));
      }),
      { numRuns: 3_000 },
    );
  });

  it('gives the same when a key has more updates than it keeps (folded to each column\'s last value as they come)', () => {
    // Positions mostly increasing (a log's order), now and then one from before: most updates are kept.
    const pos = (n: number) => `p${String(n).padStart(3, '0')}`;
    const busyKey = fc.constantFrom(keys[0]!, keys[0]!, keys[0]!, keys[1]!);
    const busyOp = fc.oneof(
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('insert' as const), key: busyKey, row: fullRow }) },
      { weight: 8, arbitrary: fc.record({ kind: fc.constant('update' as const), key: busyKey, set: partialRow.filter((row) => Object.keys(row).length > 0) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('upsert' as const), key: busyKey, row: fullRow }) },
    );
    const busyOps: fc.Arbitrary<Op[]> = fc
      .array(fc.tuple(busyOp, fc.integer({ min: -6, max: 1 })), { minLength: 20, maxLength: 80 })
      .map((items) => items.map(([item, jitter], index) => ({ ...item, position: pos(10 + index * 2 + Math.min(jitter, 0)) }) as Op));
    const busyInitial = initial.map((rows) => new Map([...rows].map(([id, row]) => [id, { ...row, last_position: pos(Number(row.last_position!.slice(1)) * 8) }])));
    fc.assert(
      fc.property(busyInitial, busyOps, (before, ops) => {
        expect(folded(before, ops)).toEqual(oneByOne(before, ops));
      }),
      { numRuns: 2_000 },
    );
  });

  it('in a fresh table (no rows before), merges each update into its new row at once, with the same result', () => {
    const ops = fc.array(op, { maxLength: 40 });
    fc.assert(
      fc.property(ops, (changes) => {
        expect(folded(new Map(), changes, { fresh: true })).toEqual(oneByOne(new Map(), changes));
      }),
      { numRuns: 5_000 },
    );
    const changes = new TableChanges(info, 'last_position', { fresh: true });
    const inserted = { id: keys[0]!, a: 'x', b: 'x', c: 'x' };
    changes.insert(inserted, 'p001');
    for (let n = 2; n <= 500; n += 1) changes.update(keys[0]!, { a: `a${n}` }, `p${String(n).padStart(3, '0')}`, source('p'));
    expect([...changes.keysToUpdate(false)]).toEqual([]);
    expect([...changes.newRows()]).toEqual([{ key: keys[0]!, row: { ...inserted, a: 'a500' }, position: 'p500' }]);
    expect(inserted.a).toBe('x');
  });

  it('held over a rebuild (HeldTable, by column), gives what applying them one by one to an empty table gives', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (changes) => {
        expect(folded(new Map(), changes, () => new HeldTable(info, 'last_position'))).toEqual(oneByOne(new Map(), changes));
      }),
      { numRuns: 5_000 },
    );
  });

  it('keeps a few updates per key however many it folds, in position order', () => {
    const changes = new TableChanges(info, 'last_position');
    changes.insert({ id: keys[0]!, a: 'x', b: 'x', c: 'x' }, 'p0000');
    for (let n = 1; n <= 1_000; n += 1) changes.update(keys[0]!, n % 2 === 0 ? { a: `a${n}` } : { b: `b${n}`, c: `c${n}` }, `p${String(n).padStart(4, '0')}`, source(`p${n}`));
    const [entry] = [...changes.keysToUpdate(false)];
    expect(entry!.updates!.length).toBeLessThan(16);
    expect(entry!.updates!.map((update) => update.position)).toEqual([...entry!.updates!.map((update) => update.position)].sort());
    expect([...changes.newRows()]).toEqual([{ key: keys[0]!, row: { id: keys[0]!, a: 'a1000', b: 'b999', c: 'c999' }, position: 'p1000' }]);
  });

  it('treats a uuid key in any letter case as one row', () => {
    const changes = new TableChanges(info, 'last_position');
    changes.insert({ id: keys[0]!.toUpperCase(), a: 'x', b: 'x', c: 'x' }, 'p001');
    changes.update(keys[0]!, { a: 'y' }, 'p002', source('p002'));
    expect([...changes.newRows()]).toEqual([{ key: keys[0]!.toUpperCase(), row: { id: keys[0]!.toUpperCase(), a: 'y', b: 'x', c: 'x' }, position: 'p002' }]);
    expect([...changes.required()]).toEqual([]);
  });

  it('refuses a column the table does not have (when writing), and a change of the key or the position', () => {
    const changes = new TableChanges(info, 'last_position');
    changes.insert({ id: keys[0]!, d: 'x' }, 'p001');
    expect(() => tableStatement(changes)).toThrow(/has no column d/);
    const updates = new TableChanges(info, 'last_position');
    updates.update(keys[0]!, { e: 'x' }, 'p002', source('p002'));
    expect(() => tableStatement(updates)).toThrow(/has no column e/);
    expect(() => changes.update(keys[0]!, { id: keys[1]! }, 'p002', source('p002'))).toThrow(/cannot set id or last_position/);
    expect(() => changes.insert({ a: 'x' }, 'p001')).toThrow(/needs its key id/);
  });
});
