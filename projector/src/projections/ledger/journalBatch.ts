import { clearingMovesOf, type JournalEntry } from '@bank/domain';
import type pg from 'pg';
import type { Statement } from '../../changes/changeStatements';
import { boundValues } from '../../changes/sqlLiterals';
import type { ReadModelTables } from '../../schema/readModelTables';
import type { BatchWriter } from '../projection';
import { copyJournalLines, JOURNAL_COLUMNS } from './journalCopy';

/** The event a journal entry comes from, as the journal records it. */
export interface PostingEvent {
  readonly positionText: string;
  readonly id: string;
  /** ISO time the event was recorded (the entry's `recordedAt`). */
  readonly recordedAt: string;
}

/** A batch's journal lines, column by column (in JOURNAL_COLUMNS order: one array per column). */
export type JournalColumns = { readonly [K in (typeof JOURNAL_COLUMNS)[number]]: unknown[] };

/** What every line of an entry shares: its event. */
const ENTRY_COLUMNS = ['position', 'event_id', 'recorded_at', 'business_date'] as const;
type EntryColumn = (typeof ENTRY_COLUMNS)[number];
/** What each line has of its own, and `entry`: the number (1, 2, …) of its entry in the batch. */
const LINE_COLUMNS = ['entry', 'line_no', 'account_key', 'side', 'amount_cents', 'customer_id', 'account_type', 'transfer_id', 'actor_id', 'description'] as const;
type LineColumn = (typeof LINE_COLUMNS)[number];

/**
 * One batch of the journal, kept column by column (sent as one array per column), what the lines of an entry
 * share (its event: position, id, times) once per entry: the lines, and the clearing moves of their entries
 * (clearingMovesOf) as signed amounts.
 *
 * A clearing item is the net of its moves: what was credited to the clearing account for the transfer less what
 * was debited from it; it is open (a row) while that net is not zero, since the time of the move that opened it.
 * In a log in process order an opening comes first and its closing brings the item to zero (deleted); the net
 * makes the items the same whatever the order of the two (a generated bank writes a payee's credit before the
 * payer's debit), so the items of a clearing account always add up to its balance.
 */
export class JournalBatch implements BatchWriter {
  private readonly entries: { readonly [K in EntryColumn]: string[] } = { position: [], event_id: [], recorded_at: [], business_date: [] };
  private readonly lines: { readonly [K in LineColumn]: unknown[] } = {
    entry: [],
    line_no: [],
    account_key: [],
    side: [],
    amount_cents: [],
    customer_id: [],
    account_type: [],
    transfer_id: [],
    actor_id: [],
    description: [],
  };
  private readonly movePosition: string[] = [];
  private readonly moveAccountKey: string[] = [];
  private readonly moveTransferId: string[] = [];
  private readonly moveDelta: number[] = [];
  private readonly moveAt: string[] = [];
  /** The positions of the events added: an event delivered twice in one batch is journaled once. */
  private readonly events = new Set<string>();

  get lineCount(): number {
    return this.lines.entry.length;
  }

  /** Adds an event's entry: its lines numbered 0..n-1, and the clearing items it opens or closes. */
  add(event: PostingEvent, entry: JournalEntry): void {
    if (this.events.has(event.positionText)) return;
    this.events.add(event.positionText);
    const e = this.entries;
    const number = e.position.push(event.positionText);
    e.event_id.push(event.id);
    e.recorded_at.push(event.recordedAt);
    e.business_date.push(entry.businessDate);
    const c = this.lines;
    const { lines } = entry;
    for (let n = 0; n < lines.length; n += 1) {
      const line = lines[n]!;
      c.entry.push(number);
      c.line_no.push(n);
      c.account_key.push(line.accountKey);
      c.side.push(line.side);
      c.amount_cents.push(line.amountCents);
      c.customer_id.push(line.customerId ?? null);
      c.account_type.push(line.accountType ?? null);
      c.transfer_id.push(line.transferId ?? null);
      c.actor_id.push(line.actorId ?? null);
      c.description.push(line.description);
    }
    for (const move of clearingMovesOf(entry)) {
      this.movePosition.push(event.positionText);
      this.moveAccountKey.push(move.accountKey);
      this.moveTransferId.push(move.transferId);
      this.moveDelta.push(move.opens ? move.amountCents : -move.amountCents);
      this.moveAt.push(event.recordedAt);
    }
  }

  /**
   * The batch as one statement. The lines are inserted unless present (an event applied again inserts nothing);
   * everything else is taken from the lines THIS statement inserted, so that a batch written twice counts nothing
   * twice: each touched account's totals move once, by the sums of those lines; the clearing moves of those events
   * are summed per item and added to the item (see clearingSql).
   */
  statements(tables: ReadModelTables): Statement[] {
    if (this.lineCount === 0) return [];
    const lineArrays = LINE_COLUMNS.map((name, i) => `$${i + 1}::${COLUMN_TYPES[name]}[]`).join(', ');
    const entryArrays = ENTRY_COLUMNS.map((name, i) => `$${LINE_COLUMNS.length + i + 1}::${COLUMN_TYPES[name]}[]`).join(', ');
    const select = JOURNAL_COLUMNS.map((name) => ((ENTRY_COLUMNS as readonly string[]).includes(name) ? `e.${name}` : `l.${name}`)).join(', ');
    const text = `WITH lines AS (
  INSERT INTO ${tables.journalLines} (${JOURNAL_COLUMNS.join(', ')})
    SELECT ${select}
      FROM unnest(${lineArrays}) AS l(${LINE_COLUMNS.join(', ')})
      JOIN unnest(${entryArrays}) WITH ORDINALITY AS e(${ENTRY_COLUMNS.join(', ')}, n) ON e.n = l.entry
  ON CONFLICT (position, line_no) DO NOTHING
  RETURNING position, account_key, side, amount_cents
), totals AS (
  INSERT INTO ${tables.ledgerAccounts} AS a (key, debits_cents, credits_cents)
    SELECT account_key, coalesce(sum(amount_cents) FILTER (WHERE side = 'debit'), 0), coalesce(sum(amount_cents) FILTER (WHERE side = 'credit'), 0)
      FROM lines GROUP BY account_key
  ON CONFLICT (key) DO UPDATE SET debits_cents = a.debits_cents + EXCLUDED.debits_cents, credits_cents = a.credits_cents + EXCLUDED.credits_cents
), ${clearingSql(tables, LINE_COLUMNS.length + ENTRY_COLUMNS.length + 1, 'WHERE m.position IN (SELECT position FROM lines)')}`;
    const values = [...LINE_COLUMNS.map((name) => this.lines[name]), ...ENTRY_COLUMNS.map((name) => this.entries[name]), ...this.moves()];
    return [{ text, values }];
  }

  /**
   * The bulk load's way (a rebuild's fresh tables): the lines by COPY, then the totals (summed here, one row per
   * account touched) and the clearing items, in one transaction of its own. When a line exists already (the batch
   * written before), the COPY fails with a duplicate key and the transaction leaves nothing: the load then writes
   * the batch with statements(), which counts nothing twice.
   */
  async copy(client: pg.ClientBase, tables: ReadModelTables): Promise<void> {
    if (this.lineCount === 0) return;
    await client.query('BEGIN');
    try {
      await copyJournalLines(client, tables.journalLines, this.columns());
      const totals = this.totals();
      await client.query(
        `INSERT INTO ${tables.ledgerAccounts} AS a (key, debits_cents, credits_cents) SELECT * FROM unnest($1::text[], $2::numeric[], $3::numeric[])
         ON CONFLICT (key) DO UPDATE SET debits_cents = a.debits_cents + EXCLUDED.debits_cents, credits_cents = a.credits_cents + EXCLUDED.credits_cents`,
        [totals.keys, totals.debits, totals.credits],
      );
      if (this.movePosition.length > 0) await client.query(`WITH ${clearingSql(tables, 1, '')}`, boundValues(this.moves()));
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  /** Every line with all its columns (its entry's copied in), for COPY. */
  private columns(): JournalColumns {
    const { entry } = this.lines;
    const ofEntry = (values: readonly string[]) => entry.map((n) => values[(n as number) - 1]);
    const e = this.entries;
    const l = this.lines;
    return {
      position: ofEntry(e.position),
      line_no: l.line_no,
      event_id: ofEntry(e.event_id),
      recorded_at: ofEntry(e.recorded_at),
      business_date: ofEntry(e.business_date),
      account_key: l.account_key,
      side: l.side,
      amount_cents: l.amount_cents,
      customer_id: l.customer_id,
      account_type: l.account_type,
      transfer_id: l.transfer_id,
      actor_id: l.actor_id,
      description: l.description,
    };
  }

  private moves(): unknown[] {
    return [this.movePosition, this.moveAccountKey, this.moveTransferId, this.moveDelta, this.moveAt];
  }

  /** The batch's lines summed per account (integer cents: exact, far below 2^53 for any batch). */
  private totals(): { keys: string[]; debits: string[]; credits: string[] } {
    const sums = new Map<string, { debits: number; credits: number }>();
    const { account_key: keys, side, amount_cents: amounts } = this.lines;
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[i] as string;
      let sum = sums.get(key);
      if (!sum) sums.set(key, (sum = { debits: 0, credits: 0 }));
      if (side[i] === 'debit') sum.debits += amounts[i] as number;
      else sum.credits += amounts[i] as number;
    }
    const out = { keys: [] as string[], debits: [] as string[], credits: [] as string[] };
    for (const [key, sum] of sums) {
      if (!Number.isSafeInteger(sum.debits) || !Number.isSafeInteger(sum.credits)) throw new RangeError(`The batch's sums for ${key} are not safe integers`);
      out.keys.push(key);
      out.debits.push(String(sum.debits));
      out.credits.push(String(sum.credits));
    }
    return out;
  }
}

const COLUMN_TYPES: Readonly<Record<(typeof JOURNAL_COLUMNS)[number] | LineColumn, string>> = {
  entry: 'integer',
  position: 'text',
  line_no: 'smallint',
  event_id: 'uuid',
  recorded_at: 'timestamptz',
  business_date: 'date',
  account_key: 'text',
  side: 'text',
  amount_cents: 'bigint',
  customer_id: 'uuid',
  account_type: 'text',
  transfer_id: 'uuid',
  actor_id: 'uuid',
  description: 'text',
};

/**
 * The clearing moves ($first … $first+4: position, account key, transfer id, signed cents, time; those kept by
 * `filter`) added to their items: summed per item (an opening and its closing in one batch net out), added to the
 * item's amount — a new row, a changed amount, or the row deleted when the net comes to zero. The parts of one
 * statement share a snapshot: the DELETE and UPDATE touch the rows that existed, the INSERT only new ones.
 */
function clearingSql(tables: ReadModelTables, first: number, filter: string): string {
  const items = tables.clearingItems;
  const $ = (n: number) => `$${first + n}`;
  return `moves AS (
  SELECT m.account_key, m.transfer_id, sum(m.delta) AS delta, (array_agg(m.at ORDER BY m.n))[1] AS at
    FROM unnest(${$(0)}::text[], ${$(1)}::text[], ${$(2)}::uuid[], ${$(3)}::bigint[], ${$(4)}::timestamptz[]) WITH ORDINALITY AS m(position, account_key, transfer_id, delta, at, n)
   ${filter}
   GROUP BY m.account_key, m.transfer_id
), net AS (
  SELECT m.account_key, m.transfer_id, coalesce(c.amount_cents, 0) + m.delta AS amount_cents, coalesce(c.since, m.at) AS since, c.account_key IS NOT NULL AS existed
    FROM moves m LEFT JOIN ${items} AS c ON c.account_key = m.account_key AND c.transfer_id = m.transfer_id
), closed AS (
  DELETE FROM ${items} AS c USING net n
   WHERE c.account_key = n.account_key AND c.transfer_id = n.transfer_id AND n.existed AND n.amount_cents = 0
), changed AS (
  UPDATE ${items} AS c SET amount_cents = n.amount_cents FROM net n
   WHERE c.account_key = n.account_key AND c.transfer_id = n.transfer_id AND n.existed AND n.amount_cents <> 0
)
INSERT INTO ${items} (account_key, transfer_id, amount_cents, since)
  SELECT account_key, transfer_id, amount_cents, since FROM net WHERE NOT existed AND amount_cents <> 0`;
}
