import { isCalendarDate, isLastDayOfMonth, monthName } from '@bank/domain';
import { formatPosition, type Position, type RecordedEvent } from '@bank/eventstore';
import { sleep, type Logger } from '@bank/platform';
import type pg from 'pg';
import type { OutgoingMessage } from './mailOutbox';
import { messageIdOf } from './messageKinds';

/** The event that makes a month's statements ready: the day close of the month's last business date. */
export const STATEMENT_EVENT = 'BusinessDayClosed';
/** Customers read, and their notices recorded, at a time. */
export const STATEMENT_NOTICE_PAGE = 1_000;
/** How long the notices wait for the read models to hold the close before they go from what they hold. */
const READ_MODEL_WAIT_MS = 60_000;

/** The month whose statements a day close makes ready ('November 2026') when it closes a month's last day; else undefined. */
export function statementMonthOf(event: Pick<RecordedEvent, 'type' | 'data'>): string | undefined {
  if (event.type !== STATEMENT_EVENT) return undefined;
  const date = (event.data as { businessDate?: unknown }).businessDate;
  if (typeof date !== 'string' || !isCalendarDate(date) || !isLastDayOfMonth(date)) return undefined;
  return monthName(date);
}

async function readModelsHold(pool: pg.Pool, position: Position): Promise<boolean> {
  const { rows } = await pool.query<{ position: string }>(`SELECT position FROM rm.checkpoint WHERE name = 'main'`);
  const applied = rows[0]?.position;
  return applied !== undefined && applied >= formatPosition(position);
}

/**
 * The "statement ready" notices of a month-end close, a page of customers at a time: one to every customer (not
 * staff, not closed) registered by the close, each under its own id (`statementReady.<close event>.<user>`, so a
 * replay records nothing twice); the outbox leaves out those who turned the notice off. The customers come from the
 * read models once they hold the close (one keyset query a page, whatever the bank's size); should the projector lag
 * more than a minute, from what they hold, with a warning, rather than hold every other message back.
 */
export async function* statementNotices(
  pool: pg.Pool,
  close: RecordedEvent,
  month: string,
  options: { readonly signal: AbortSignal; readonly logger?: Logger; readonly waitMs?: number },
): AsyncGenerator<OutgoingMessage[]> {
  const deadline = Date.now() + (options.waitMs ?? READ_MODEL_WAIT_MS);
  while (!(await readModelsHold(pool, close.position))) {
    if (options.signal.aborted) return;
    if (Date.now() > deadline) {
      options.logger?.warn({ close: close.id, position: formatPosition(close.position) }, 'The read models do not hold the month-end close yet: statement notices go to the customers they hold');
      break;
    }
    await sleep(100, options.signal);
  }
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await pool.query<{ id: string; email: string; first_name: string }>(
      `SELECT id::text, email, first_name FROM rm.users
        WHERE role = 'customer' AND NOT is_closed AND created_at <= $1 AND id > $2::uuid ORDER BY id LIMIT $3`,
      [close.created, after, STATEMENT_NOTICE_PAGE],
    );
    if (rows.length === 0) return;
    yield rows.map((row) => ({ id: messageIdOf('statementReady', `${close.id}.${row.id}`), kind: 'statementReady' as const, userId: row.id, to: row.email, data: { firstName: row.first_name, month } }));
    after = rows.at(-1)!.id;
  }
}
