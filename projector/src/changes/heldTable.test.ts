import type { RecordedEvent } from '@bank/eventstore';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoMillis } from './heldColumn';
import { HeldPositions } from './heldPositions';
import { HeldTable } from './heldTable';
import type { TableInfo } from './tableCatalog';
import { TableChanges, type ChangeSource, type FoldedTable, type Row } from './tableChanges';

/** A table like the balances' (rm.accounts): numbers, a flag, timestamps, text. */
const types: Record<string, string> = {
  user_id: 'uuid',
  account_number: 'text',
  savings_cents: 'bigint',
  checking_cents: 'bigint',
  is_closed: 'boolean',
  opened_at: 'timestamp with time zone',
  updated_at: 'timestamp with time zone',
  last_position: 'text',
};
const info: TableInfo = { name: 'accounts', qualified: '"rm".accounts', key: 'user_id', columns: new Map(Object.entries(types).map(([name, type]) => [name, { name, type }])) };
const source = (position: string): ChangeSource => ({ type: 'Test', streamId: 's', positionText: position, recorded: {} as RecordedEvent });

const formatted = (commit: number, prepare = commit) => `${String(commit).padStart(20, '0')}:${String(prepare).padStart(20, '0')}`;
const keys = ['0000000a-0000-4000-8000-000000000001', '0000000a-0000-4000-8000-000000000002', '0000000A-0000-4000-8000-000000000003'];

/** Values of every kind a column may be given, those a column keeps as numbers and those it keeps as they are. */
const anyValue = fc.oneof(
  fc.integer({ min: -1e12, max: 1e12 }),
  fc.constantFrom(0, -0, 2 ** 53 - 1, 1.5, Number.NaN, true, false, null, undefined, '', 'text', '123'),
  fc.date({ min: new Date('0001-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom('2025-02-30T00:00:00.000Z', '2024-02-29T12:00:00.000Z', '2025-01-01T24:00:00.000Z', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00.000+00:00', '0099-12-31T00:00:00.000Z'),
);
const columnNames = Object.keys(types).filter((name) => name !== 'user_id' && name !== 'last_position');
const partial = fc.dictionary(fc.constantFrom(...columnNames), anyValue, { minKeys: 1, maxKeys: 4 });
const full = fc.record(Object.fromEntries(columnNames.map((name) => [name, anyValue])));
const key = fc.constantFrom(...keys, keys[0]!.toUpperCase());
/** Positions in the event store's form (and now and then past what a double holds exactly, kept as text). */
const position = fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 30 }).map((n) => formatted(n * 1000, n)) }, { weight: 1, arbitrary: fc.constantFrom('90071992547409930000:00000000000000000001', formatted(5000, 7)) });
type Op = { kind: 'insert' | 'upsert'; key: string; row: Row; position: string } | { kind: 'update'; key: string; set: Row; position: string };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), key, row: full, position }),
  fc.record({ kind: fc.constant('update' as const), key, set: partial, position }),
  fc.record({ kind: fc.constant('upsert' as const), key, row: full, position }),
);

function apply(table: FoldedTable, ops: readonly Op[]): FoldedTable {
  for (const change of ops) {
    if (change.kind === 'insert') table.insert({ ...change.row, user_id: change.key }, change.position);
    else if (change.kind === 'update') table.update(change.key, change.set, change.position, source(change.position));
    else table.upsert({ ...change.row, user_id: change.key }, change.position, source(change.position));
  }
  return table;
}

/** What the writers read of a folded table. */
function written(table: FoldedTable) {
  const rows = [...table.newRows()].sort((a, b) => (a.key < b.key ? -1 : 1));
  return { size: table.size, rows, updates: [...table.keysToUpdate(false)], required: [...table.required()].map((entry) => entry.key) };
}

describe('a table held over a rebuild (HeldTable)', () => {
  it('folds every kind of value exactly as a fresh TableChanges does, and gives each value back as it was given', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        expect(written(apply(new HeldTable(info, 'last_position'), ops))).toEqual(written(apply(new TableChanges(info, 'last_position', { fresh: true }), ops)));
      }),
      { numRuns: 3_000 },
    );
  });

  it('holds rows past its first room, each with its own values and position', () => {
    const table = new HeldTable(info, 'last_position');
    const key = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    for (let n = 0; n < 5_000; n += 1) table.insert({ user_id: key(n), account_number: `A${n}`, savings_cents: 0, checking_cents: 0, is_closed: false, opened_at: '2025-01-01T00:00:00.000Z' }, formatted(n + 1));
    for (let n = 0; n < 5_000; n += 2) table.update(key(n), { savings_cents: n * 100, updated_at: new Date(Date.UTC(2025, 0, 2, 0, 0, n)).toISOString() }, formatted(10_000 + n), source(''));
    expect(table.size).toBe(5_000);
    const rows = [...table.newRows()];
    expect(rows[4_998]).toEqual({
      key: key(4_998),
      row: { user_id: key(4_998), account_number: 'A4998', savings_cents: 499_800, checking_cents: 0, is_closed: false, opened_at: '2025-01-01T00:00:00.000Z', updated_at: '2025-01-02T01:23:18.000Z' },
      position: formatted(14_998),
    });
    expect(rows[4_999]).toEqual({ key: key(4_999), row: { user_id: key(4_999), account_number: 'A4999', savings_cents: 0, checking_cents: 0, is_closed: false, opened_at: '2025-01-01T00:00:00.000Z' }, position: formatted(5_000) });
  });
});

describe('timestamps kept as numbers (isoMillis)', () => {
  it('takes exactly the text toISOString writes, and gives it back', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('0100-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }), (date) => {
        const text = date.toISOString();
        expect(new Date(isoMillis(text)!).toISOString()).toBe(text);
      }),
    );
  });

  it('refuses text that is not a real instant in that form (which Date.parse would move or misread)', () => {
    for (const text of ['2025-02-30T00:00:00.000Z', '2025-02-29T00:00:00.000Z', '2025-01-01T24:00:00.000Z', '2025-13-01T00:00:00.000Z', '2025-01-01T00:60:00.000Z', '2025-01-01T00:00:60.000Z', '2025-01-01T00:00:00Z', '2025-01-01T00:00:00.000+00:00', '2025-01-01 00:00:00.000Z', '0099-12-31T00:00:00.000Z', '2025-01-0xT00:00:00.000Z']) {
      expect(isoMillis(text), text).toBeUndefined();
    }
    expect(isoMillis('2024-02-29T23:59:59.999Z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59, 999));
    expect(isoMillis('2000-02-29T00:00:00.000Z')).toBe(Date.UTC(2000, 1, 29));
    expect(isoMillis('1900-02-29T00:00:00.000Z')).toBeUndefined();
  });
});

describe('positions kept as numbers (HeldPositions)', () => {
  it('orders positions as their text orders, in either form, and moves a slot only forward', () => {
    const text = fc.oneof(
      fc.tuple(fc.nat(), fc.nat()).map(([commit, prepare]) => formatted(commit, prepare)),
      fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 20n - 1n }), fc.bigInt({ min: 0n, max: 10n ** 20n - 1n })).map(([commit, prepare]) => `${commit.toString().padStart(20, '0')}:${prepare.toString().padStart(20, '0')}`),
      fc.constantFrom('p001', 'p002', '', formatted(2 ** 53 - 1, 0), formatted(2 ** 53 - 1, 2 ** 53 - 1)),
    );
    fc.assert(
      fc.property(text, text, (held, incoming) => {
        const positions = new HeldPositions(1);
        positions.set(0, held);
        expect(positions.get(0)).toBe(held);
        expect(positions.advance(0, incoming)).toBe(incoming > held);
        expect(positions.get(0)).toBe(incoming > held ? incoming : held);
      }),
      { numRuns: 5_000 },
    );
  });
});
