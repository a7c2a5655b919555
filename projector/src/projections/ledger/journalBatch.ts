import { clearingMovesOf, type JournalEntry } from '@bank/domain';
import type { Statement } from '../../changes/changeStatements';
import type { ReadModelTables } from '../../schema/readModelTables';
import type { BatchWriter } from '../projection';

/** The event a journal entry comes from, as the journal records it. */
export interface PostingEvent {
  readonly positionText: string;
  readonly id: string;
  /** ISO time the event was recorded (the entry's `recordedAt`). */
  readonly recordedAt: string;
}

/** An open clearing item as the batch leaves it (`open: false`: closed by the batch's last move of it). */
interface ClearingState {
  readonly accountKey: string;
  readonly transferId: string;
  readonly amountCents: number;
  readonly since: string;
  readonly open: boolean;
}

/**
 * One batch of the journal, folded in memory: the lines (kept column by column, sent as one array per column)
 * and, per clearing item, the state the batch's last move of it leaves (an item opened and closed in one batch nets
 * out to a DELETE of nothing). Written as ONE statement (see statements()).
 */
export class JournalBatch implements BatchWriter {
  private readonly position: string[] = [];
  private readonly lineNo: number[] = [];
  private readonly eventId: string[] = [];
  private readonly recordedAt: string[] = [];
  private readonly businessDate: string[] = [];
  private readonly accountKey: string[] = [];
  private readonly side: string[] = [];
  private readonly amountCents: number[] = [];
  private readonly customerId: (string | null)[] = [];
  private readonly accountType: (string | null)[] = [];
  private readonly transferId: (string | null)[] = [];
  private readonly actorId: (string | null)[] = [];
  private readonly description: string[] = [];
  private readonly clearing = new Map<string, ClearingState>();

  get lineCount(): number {
    return this.position.length;
  }

  /** Adds an event's entry: its lines numbered 0..n-1, and the clearing items it opens or closes. */
  add(event: PostingEvent, entry: JournalEntry): void {
    const { lines } = entry;
    for (let n = 0; n < lines.length; n += 1) {
      const line = lines[n]!;
      this.position.push(event.positionText);
      this.lineNo.push(n);
      this.eventId.push(event.id);
      this.recordedAt.push(event.recordedAt);
      this.businessDate.push(entry.businessDate);
      this.accountKey.push(line.accountKey);
      this.side.push(line.side);
      this.amountCents.push(line.amountCents);
      this.customerId.push(line.customerId ?? null);
      this.accountType.push(line.accountType ?? null);
      this.transferId.push(line.transferId ?? null);
      this.actorId.push(line.actorId ?? null);
      this.description.push(line.description);
    }
    for (const move of clearingMovesOf(entry)) {
      const key = `${move.accountKey} ${move.transferId.toLowerCase()}`;
      this.clearing.set(key, { accountKey: move.accountKey, transferId: move.transferId, amountCents: move.amountCents, since: event.recordedAt, open: move.opens });
    }
  }

  /**
   * The batch as one statement: the lines inserted unless present (an event applied again inserts nothing); each
   * touched account's totals moved once, by the sums of the lines THIS statement inserted (so a batch written
   * twice never counts a line twice); the clearing items the batch closes deleted, those it leaves open written
   * with the amount and time of their last opening (the same state whether the batch is written once or twice).
   */
  statements(tables: ReadModelTables): Statement[] {
    if (this.position.length === 0 && this.clearing.size === 0) return [];
    const closed = [...this.clearing.values()].filter((item) => !item.open);
    const opened = [...this.clearing.values()].filter((item) => item.open);
    const values: unknown[] = [
      this.position,
      this.lineNo,
      this.eventId,
      this.recordedAt,
      this.businessDate,
      this.accountKey,
      this.side,
      this.amountCents,
      this.customerId,
      this.accountType,
      this.transferId,
      this.actorId,
      this.description,
      closed.map((item) => item.accountKey),
      closed.map((item) => item.transferId),
      opened.map((item) => item.accountKey),
      opened.map((item) => item.transferId),
      opened.map((item) => item.amountCents),
      opened.map((item) => item.since),
    ];
    const text = `WITH lines AS (
  INSERT INTO ${tables.journalLines} (position, line_no, event_id, recorded_at, business_date, account_key, side, amount_cents,
      customer_id, account_type, transfer_id, actor_id, description)
    SELECT * FROM unnest($1::text[], $2::smallint[], $3::uuid[], $4::timestamptz[], $5::date[], $6::text[], $7::text[], $8::bigint[],
      $9::uuid[], $10::text[], $11::uuid[], $12::uuid[], $13::text[])
  ON CONFLICT (position, line_no) DO NOTHING
  RETURNING account_key, side, amount_cents
), totals AS (
  INSERT INTO ${tables.ledgerAccounts} AS a (key, debits_cents, credits_cents)
    SELECT account_key, coalesce(sum(amount_cents) FILTER (WHERE side = 'debit'), 0), coalesce(sum(amount_cents) FILTER (WHERE side = 'credit'), 0)
      FROM lines GROUP BY account_key
  ON CONFLICT (key) DO UPDATE SET debits_cents = a.debits_cents + EXCLUDED.debits_cents, credits_cents = a.credits_cents + EXCLUDED.credits_cents
), closed AS (
  DELETE FROM ${tables.clearingItems} AS c USING unnest($14::text[], $15::uuid[]) AS x(account_key, transfer_id)
   WHERE c.account_key = x.account_key AND c.transfer_id = x.transfer_id
)
INSERT INTO ${tables.clearingItems} (account_key, transfer_id, amount_cents, since)
  SELECT * FROM unnest($16::text[], $17::uuid[], $18::bigint[], $19::timestamptz[])
ON CONFLICT (account_key, transfer_id) DO UPDATE SET amount_cents = EXCLUDED.amount_cents, since = EXCLUDED.since`;
    return [{ text, values }];
  }
}
