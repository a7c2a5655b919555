/**
 * `npx tsx projector/bench/heldRows.ts [--rows 1000000] [--updates 3000000] [--kind held|changes]`: what a balance
 * update costs a rebuild that holds the balances' rows (rm.accounts) over its load, at a bank's size: CPU per update
 * (the collector's included) and the heap held, for the table a rebuild holds (HeldTable, by column) or the
 * per-batch fold it replaced (TableChanges with `fresh`). Each update carries a fresh instant and position, as an
 * event does. Run each kind in its own process (the other's heap would weigh on it). `heapMb` is the heap used after
 * the updates: the rows, their keys and the bench's own record of what it set. Checks the rows it reads back.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { RecordedEvent } from '@bank/eventstore';
import { HeldTable } from '../src/changes/heldTable';
import type { TableInfo } from '../src/changes/tableCatalog';
import { TableChanges, type ChangeSource, type FoldedTable } from '../src/changes/tableChanges';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, updates: { type: 'string', default: '3000000' }, kind: { type: 'string', default: 'held' } } });
const rows = Number(args.rows);
const updates = Number(args.updates);
const types: Record<string, string> = { user_id: 'uuid', account_number: 'text', savings_cents: 'bigint', checking_cents: 'bigint', is_closed: 'boolean', opened_at: 'timestamp with time zone', updated_at: 'timestamp with time zone', last_position: 'text' };
const info: TableInfo = { name: 'accounts', qualified: '"rm".accounts', key: 'user_id', columns: new Map(Object.entries(types).map(([name, type]) => [name, { name, type }])) };
const source = { type: 'AccountCredited', streamId: 's', positionText: '', recorded: {} as RecordedEvent } satisfies ChangeSource;
const position = (n: number) => `${String(n).padStart(20, '0')}:${String(n).padStart(20, '0')}`;
const instant = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 1000).toISOString();

const table: FoldedTable = args.kind === 'changes' ? new TableChanges(info, 'last_position', { fresh: true }) : new HeldTable(info, 'last_position');
const keys = Array.from({ length: rows }, () => randomUUID());
for (let i = 0; i < rows; i += 1) {
  table.insert({ user_id: keys[i], account_number: String(10_000_000 + i), savings_cents: 0, checking_cents: 0, is_closed: false, opened_at: instant(i), updated_at: instant(i) }, position(i + 1));
}
const expected = new Map<number, number>();
const cpu = process.cpuUsage();
for (let u = 0; u < updates; u += 1) {
  const i = (u * 7_919) % rows;
  const at = rows + u + 1;
  table.update(keys[i]!, u % 2 === 0 ? { savings_cents: u, updated_at: instant(at) } : { checking_cents: u, updated_at: instant(at) }, position(at), source);
  if (u % 2 === 0) expected.set(i, u);
}
const used = process.cpuUsage(cpu);
const heapMb = Math.round(process.memoryUsage().heapUsed / 1e6);
// Both give the rows in the order they were inserted.
let checked = 0;
for (const { key, row } of table.newRows()) {
  if (key !== keys[checked]) throw new Error(`row ${checked}: key ${key}, expected ${keys[checked]}`);
  const savings = expected.get(checked) ?? 0;
  if (row.savings_cents !== savings) throw new Error(`row ${key}: savings ${String(row.savings_cents)}, expected ${savings}`);
  checked += 1;
}
if (checked !== rows) throw new Error(`${checked} rows read back, expected ${rows}`);
console.log(JSON.stringify({ kind: args.kind, rows, updates, cpuMicrosPerUpdate: Math.round(((used.user + used.system) / updates) * 100) / 100, heapMb, checkedRows: checked }));
