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

/**
 * One batch of the journal, kept column by column (sent as one array per column): the lines, and the clearing
 * moves of their entries (clearingMovesOf) as signed amounts. Written as ONE statement (see statements()).
 *
 * A clearing item is the net of its moves: what was credited to the clearing account for the transfer less what
 * was debited from it; it is open (a row) while that net is not zero, since the time of the move that opened it.
 * In a log in process order an opening comes first and its closing brings the item to zero (deleted); the net
 * makes the items the same whatever the order of the two (a generated bank writes a payee's credit before the
 * payer's debit), so the items of a clearing account always add up to its balance.
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
  private readonly movePosition: string[] = [];
  private readonly moveAccountKey: string[] = [];
  private readonly moveTransferId: string[] = [];
  private readonly moveDelta: number[] = [];
  private readonly moveAt: string[] = [];
  /** The positions of the events added: an event delivered twice in one batch is journaled once. */
  private readonly events = new Set<string>();

  get lineCount(): number {
    return this.position.length;
  }

  /** Adds an event's entry: its lines numbered 0..n-1, and the clearing items it opens or closes. */
  add(event: PostingEvent, entry: JournalEntry): void {
    if (this.events.has(event.positionText)) return;
    this.events.add(event.positionText);
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
      this.movePosition.push(event.positionText);
      this.moveAccountKey.push(move.accountKey);
      this.moveTransferId.push(move.transferId);
      this.moveDelta.push(move.opens ? move.amountCents : -move.amountCents);
      this.moveAt.push(event.recordedAt);
    }
  }

  /**
   * The batch as one statement. The lines are inserted unless present (an event applied again inserts nothing);
   * everything else is taken from the lines THIS statement inserted, so that a batch written twice (a rebuild's
   * bulk load may) counts nothing twice: each touched account's totals move once, by the sums of those lines; the
   * clearing moves of those events are summed per item and added to the item (a new row, a changed amount, or the
   * row deleted when its net comes to zero: an opening and its closing in one batch leave nothing).
   */
  statements(tables: ReadModelTables): Statement[] {
    if (this.position.length === 0) return [];
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
      this.movePosition,
      this.moveAccountKey,
      this.moveTransferId,
      this.moveDelta,
      this.moveAt,
    ];
    const items = tables.clearingItems;
    const text = `WITH lines AS (
  INSERT INTO ${tables.journalLines} (position, line_no, event_id, recorded_at, business_date, account_key, side, amount_cents,
      customer_id, account_type, transfer_id, actor_id, description)
    SELECT * FROM unnest($1::text[], $2::smallint[], $3::uuid[], $4::timestamptz[], $5::date[], $6::text[], $7::text[], $8::bigint[],
      $9::uuid[], $10::text[], $11::uuid[], $12::uuid[], $13::text[])
  ON CONFLICT (position, line_no) DO NOTHING
  RETURNING position, account_key, side, amount_cents
), totals AS (
  INSERT INTO ${tables.ledgerAccounts} AS a (key, debits_cents, credits_cents)
    SELECT account_key, coalesce(sum(amount_cents) FILTER (WHERE side = 'debit'), 0), coalesce(sum(amount_cents) FILTER (WHERE side = 'credit'), 0)
      FROM lines GROUP BY account_key
  ON CONFLICT (key) DO UPDATE SET debits_cents = a.debits_cents + EXCLUDED.debits_cents, credits_cents = a.credits_cents + EXCLUDED.credits_cents
), moves AS (
  SELECT m.account_key, m.transfer_id, sum(m.delta) AS delta, (array_agg(m.at ORDER BY m.n))[1] AS at
    FROM unnest($14::text[], $15::text[], $16::uuid[], $17::bigint[], $18::timestamptz[]) WITH ORDINALITY AS m(position, account_key, transfer_id, delta, at, n)
   WHERE m.position IN (SELECT position FROM lines)
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
    return [{ text, values }];
  }
}
