import type pg from 'pg';
import type { ReadModelTables } from '../schema/readModelTables';
import type { VerifyMismatch } from './verifyReadModels';
import { clearingKey, type ExpectedLine, type LedgerReplay } from './ledgerReplay';

type Note = (mismatch: VerifyMismatch) => void;
type Client = Pick<pg.ClientBase, 'query'>;

/** What the comparisons of the books name a mismatch with when no customer or event is concerned. */
const JOURNAL = 'journal';
const LEDGER = 'ledger';

/** The books' small tables, read in the verification's snapshot (at the read models' checkpoint). */
export interface LedgerSnapshot {
  readonly accounts: Map<string, { debits: string; credits: string }>;
  readonly clearing: Map<string, { accountKey: string; transferId: string; amountCents: number; since: string }>;
  readonly days: Map<string, Record<string, unknown>>;
  readonly businessDate: { firstDate: string | null; mode: string | null; lastClosed: string | null } | undefined;
}

export async function readLedgerSnapshot(client: Client, tables: ReadModelTables): Promise<LedgerSnapshot> {
  const accounts = await client.query<{ key: string; debits: string; credits: string }>(
    `SELECT key, debits_cents::text AS debits, credits_cents::text AS credits FROM ${tables.ledgerAccounts}`,
  );
  const clearing = await client.query<{ account_key: string; transfer_id: string; amount_cents: string; since: Date }>(
    `SELECT account_key, transfer_id, amount_cents, since FROM ${tables.clearingItems}`,
  );
  const days = await client.query<{ business_date: string } & Record<string, unknown>>(
    `SELECT business_date::text AS business_date, closed_at, recorded_at, through_position, total_debits_cents::text AS total_debits_cents,
            total_credits_cents::text AS total_credits_cents, balanced, journal_hash, line_count, accounts FROM ${tables.ledgerDays}`,
  );
  const businessDate = await client.query<{ first_date: string | null; mode: string | null; last_closed: string | null }>(
    `SELECT first_date::text AS first_date, mode, last_closed::text AS last_closed FROM ${tables.businessDate} WHERE id = 1`,
  );
  const row = businessDate.rows[0];
  return {
    accounts: new Map(accounts.rows.map((r) => [r.key, { debits: r.debits, credits: r.credits }])),
    clearing: new Map(
      clearing.rows.map((r) => [clearingKey(r.account_key, r.transfer_id), { accountKey: r.account_key, transferId: r.transfer_id, amountCents: Number(r.amount_cents), since: r.since.toISOString() }]),
    ),
    days: new Map(days.rows.map((r) => [r.business_date, r])),
    businessDate: row && { firstDate: row.first_date, mode: row.mode, lastClosed: row.last_closed },
  };
}

interface LineRow {
  position: string;
  line_no: number;
  event_id: string;
  recorded_at: Date;
  business_date: string;
  account_key: string;
  side: string;
  amount_cents: string;
  customer_id: string | null;
  account_type: string | null;
  transfer_id: string | null;
  actor_id: string | null;
  description: string;
}

const lineName = (position: string, lineNo: number, accountKey: string) => `journal[${position}#${lineNo} ${accountKey}]`;
const lower = (value: string | null | undefined) => (value == null ? null : value.toLowerCase());

/** The read model's journal summed per account (debits, credits), as the pages are compared. */
export type JournalSums = Map<string, { debits: bigint; credits: bigint }>;

/**
 * Compares the replay's lines of one page of the log with rm.journal_lines in the same range of positions
 * (`after` < position <= `through`), naming each line changed (field by field), missing or extra by its position,
 * line number and account, and adds the read model's lines to `sums`. Returns how many lines it holds in the range.
 */
export async function compareJournalPage(
  client: Client,
  tables: ReadModelTables,
  expected: readonly ExpectedLine[],
  range: { readonly after: string; readonly through: string },
  sums: JournalSums,
  note: Note,
): Promise<number> {
  const { after, through } = range;
  const { rows } = await client.query<LineRow>(
    `SELECT position, line_no, event_id, recorded_at, business_date::text AS business_date, account_key, side, amount_cents::text AS amount_cents,
            customer_id, account_type, transfer_id, actor_id, description
       FROM ${tables.journalLines} WHERE position > $1 AND position <= $2 ORDER BY position, line_no`,
    [after, through],
  );
  const stored = new Map<string, LineRow>();
  for (const row of rows) {
    stored.set(`${row.position}#${row.line_no}`, row);
    let sum = sums.get(row.account_key);
    if (!sum) sums.set(row.account_key, (sum = { debits: 0n, credits: 0n }));
    if (row.side === 'debit') sum.debits += BigInt(row.amount_cents);
    else sum.credits += BigInt(row.amount_cents);
  }
  for (const line of expected) {
    const key = `${line.position}#${line.lineNo}`;
    const row = stored.get(key);
    const l = line.line;
    const name = lineName(line.position, line.lineNo, l.accountKey);
    const userId = l.customerId ?? '';
    if (!row) {
      note({ userId, stream: line.streamId, field: name, expected: 'present', actual: null });
      continue;
    }
    stored.delete(key);
    const pairs: [string, unknown, unknown][] = [
      ['eventId', lower(line.eventId), lower(row.event_id)],
      ['recordedAt', line.recordedAt, row.recorded_at.toISOString()],
      ['businessDate', line.businessDate, row.business_date],
      ['accountKey', l.accountKey, row.account_key],
      ['side', l.side, row.side],
      ['amountCents', l.amountCents, Number(row.amount_cents)],
      ['customerId', lower(l.customerId), lower(row.customer_id)],
      ['accountType', l.accountType ?? null, row.account_type],
      ['transferId', lower(l.transferId), lower(row.transfer_id)],
      ['actorId', lower(l.actorId), lower(row.actor_id)],
      ['description', l.description, row.description],
    ];
    for (const [field, want, got] of pairs) {
      if (want !== got) note({ userId, stream: line.streamId, field: `${name}.${field}`, expected: want, actual: got });
    }
  }
  for (const row of stored.values()) {
    note({ userId: row.customer_id ?? '', stream: JOURNAL, field: lineName(row.position, row.line_no, row.account_key), expected: null, actual: 'present' });
  }
  return rows.length;
}

/** JSON with the keys of every object sorted (jsonb keeps its own key order). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * Compares the replay's totals per account, open clearing items, day closes and business date with the snapshot's.
 * An account's total that differs from the replay is named when it also differs from the read model's own journal
 * (`sums`): when it equals the journal, the lines that differ are what explains it, and they are named already
 * (an event changed in the log shows as its lines, not as every total they feed).
 */
export function compareLedgerState(replay: LedgerReplay, snapshot: LedgerSnapshot, sums: JournalSums, note: Note): void {
  const accounts = new Map(snapshot.accounts);
  for (const [key, totals] of replay.totals) {
    const row = accounts.get(key);
    accounts.delete(key);
    const field = `ledger[${key}]`;
    if (!row) {
      note({ userId: '', stream: LEDGER, field, expected: 'present', actual: null });
      continue;
    }
    const journal = sums.get(key) ?? { debits: 0n, credits: 0n };
    const sides = [
      ['debitsCents', totals.debitsCents.toString(), row.debits, journal.debits.toString()],
      ['creditsCents', totals.creditsCents.toString(), row.credits, journal.credits.toString()],
    ] as const;
    for (const [side, expected, actual, lines] of sides) {
      if (actual !== expected && actual !== lines) note({ userId: '', stream: LEDGER, field: `${field}.${side}`, expected, actual });
    }
  }
  for (const key of accounts.keys()) note({ userId: '', stream: LEDGER, field: `ledger[${key}]`, expected: null, actual: 'present' });

  const clearing = new Map(snapshot.clearing);
  for (const [key, item] of replay.clearing) {
    const row = clearing.get(key);
    clearing.delete(key);
    const field = `clearing[${key}]`;
    const stream = `transfer-${item.transferId}`;
    if (!row) {
      note({ userId: '', stream, field, expected: 'present', actual: null });
      continue;
    }
    if (row.amountCents !== item.amountCents) note({ userId: '', stream, field: `${field}.amountCents`, expected: item.amountCents, actual: row.amountCents });
    if (row.since !== item.since) note({ userId: '', stream, field: `${field}.since`, expected: item.since, actual: row.since });
  }
  for (const [key, row] of clearing) note({ userId: '', stream: `transfer-${row.transferId}`, field: `clearing[${key}]`, expected: null, actual: 'present' });

  const days = new Map(snapshot.days);
  for (const [date, day] of replay.days) {
    const row = days.get(date);
    days.delete(date);
    const field = `ledgerDays[${date}]`;
    if (!row) {
      note({ userId: '', stream: 'businessDays', field, expected: 'present', actual: null });
      continue;
    }
    const pairs: [string, unknown, unknown][] = [
      ['closedAt', new Date(day.closedAt).toISOString(), (row.closed_at as Date).toISOString()],
      ['recordedAt', day.recordedAt, (row.recorded_at as Date).toISOString()],
      ['throughPosition', day.throughPosition, row.through_position],
      ['totalDebitsCents', day.totalDebitsCents, row.total_debits_cents],
      ['totalCreditsCents', day.totalCreditsCents, row.total_credits_cents],
      ['balanced', day.balanced, row.balanced],
      ['journalHash', day.journalHash, row.journal_hash],
      ['lineCount', day.lineCount, row.line_count],
      ['accounts', canonical(day.accounts), canonical(row.accounts)],
    ];
    for (const [name, want, got] of pairs) if (want !== got) note({ userId: '', stream: 'businessDays', field: `${field}.${name}`, expected: want, actual: got });
  }
  for (const date of days.keys()) note({ userId: '', stream: 'businessDays', field: `ledgerDays[${date}]`, expected: null, actual: 'present' });

  const stored = snapshot.businessDate ?? { firstDate: null, mode: null, lastClosed: null };
  for (const name of ['firstDate', 'mode', 'lastClosed'] as const) {
    if (replay.businessDate[name] !== stored[name]) note({ userId: '', stream: 'businessDays', field: `businessDate.${name}`, expected: replay.businessDate[name], actual: stored[name] });
  }
}
