import { centsToDollars, type AccountKind, type Direction } from '@bank/domain';
import { isUuid } from '@bank/platform';
import type pg from 'pg';
import { z } from 'zod';
import { cursorInstant, cursorInstantSql } from '../../http/keysetPage';

/** The contract's Transaction shape (API.md). Amounts in dollars. */
export interface TransactionDto {
  readonly _id: string;
  readonly amount: number;
  readonly transactionType: Direction;
  readonly date: string;
  readonly description: string;
  readonly account: AccountKind;
  readonly status: 'completed' | 'pending' | 'failed' | 'reversed';
  readonly balanceAfter: number;
  readonly transferId?: string;
  /** Beyond the contract's fields: the transfer went to another bank (ACH), so the web app can word it Sent/Settled. */
  readonly external?: true;
}

interface TransactionRow {
  id: string;
  user_id: string;
  account: AccountKind;
  direction: Direction;
  amount_cents: string;
  description: string;
  date: Date;
  status: TransactionDto['status'];
  balance_after_cents: string;
  transfer_id: string | null;
  external?: boolean | null;
}

// `external`: one primary-key probe of rm.transfers per row, only for rows that belong to a transfer.
const COLUMNS =
  'id, user_id, account, direction, amount_cents, description, date, status, balance_after_cents, transfer_id, (SELECT NOT t.internal FROM rm.transfers t WHERE t.id = transfer_id) AS external';

export function presentTransaction(row: TransactionRow): TransactionDto {
  return {
    _id: row.id,
    amount: centsToDollars(Number(row.amount_cents)),
    transactionType: row.direction,
    date: row.date.toISOString(),
    description: row.description,
    account: row.account,
    status: row.status,
    balanceAfter: centsToDollars(Number(row.balance_after_cents)),
    ...(row.transfer_id ? { transferId: row.transfer_id } : {}),
    ...(row.external === true ? { external: true as const } : {}),
  };
}

/** The key of the transaction lists' order (date, then id, both descending): what their `cursor` holds. */
export const transactionKey = z.object({ date: cursorInstant, id: z.string().refine(isUuid) });
export type TransactionKey = z.output<typeof transactionKey>;

/**
 * Where a page starts: a paged list's key (`?cursor`), or the older `?before` of GET /transaction/complete: a
 * transaction id (the page continues after that transaction, keyset on (date, id)) or an ISO-8601 date
 * (transactions strictly older than that instant).
 */
export type Cursor =
  | ({ readonly kind: 'key' } & TransactionKey)
  | { readonly kind: 'transaction'; readonly id: string }
  | { readonly kind: 'date'; readonly date: Date };

export interface ListOptions {
  /** Only this user's transactions; omitted = everyone's (admin). */
  readonly userId?: string;
  readonly limit: number;
  readonly before?: Cursor;
}

export interface TransactionListRow {
  readonly transaction: TransactionDto;
  readonly key: TransactionKey;
}

/** Newest first (date, then id, descending). Undefined when the cursor names a transaction not in the list. */
export async function listTransactions(pool: pg.Pool, options: ListOptions): Promise<TransactionDto[] | undefined> {
  return (await listTransactionRows(pool, options))?.map((row) => row.transaction);
}

/**
 * The same rows with their keys (for a page's `next`). Served by transactions_user_date_idx (one user's) and
 * transactions_date_idx (everyone's): the row comparison `(date, id) < (…)` is their index condition.
 */
export async function listTransactionRows(pool: pg.Pool, options: ListOptions): Promise<TransactionListRow[] | undefined> {
  const where: string[] = [];
  const values: unknown[] = [];
  if (options.userId) {
    values.push(options.userId);
    where.push(`user_id = $${values.length}`);
  }
  if (options.before?.kind === 'key') {
    values.push(options.before.date, options.before.id);
    where.push(`(date, id) < ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
  } else if (options.before?.kind === 'transaction') {
    const { id } = options.before;
    const { rows } = options.userId
      ? await pool.query<{ date: Date }>('SELECT date FROM rm.transactions WHERE id = $1 AND user_id = $2', [id, options.userId])
      : await pool.query<{ date: Date }>('SELECT date FROM rm.transactions WHERE id = $1', [id]);
    const cursor = rows[0];
    if (!cursor) return undefined;
    values.push(cursor.date, id);
    where.push(`(date, id) < ($${values.length - 1}, $${values.length})`);
  } else if (options.before?.kind === 'date') {
    values.push(options.before.date);
    where.push(`date < $${values.length}`);
  }
  values.push(options.limit);
  const { rows } = await pool.query<TransactionRow & { sort_date: string }>(
    `SELECT ${COLUMNS}, ${cursorInstantSql('date')} AS sort_date FROM rm.transactions ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY date DESC, id DESC LIMIT $${values.length}`,
    values,
  );
  return rows.map((row) => ({ transaction: presentTransaction(row), key: { date: row.sort_date, id: row.id } }));
}

/** One transaction, with its owner and its amount in cents (what a staff reversal needs). */
export async function findTransaction(pool: pg.Pool, id: string): Promise<(TransactionDto & { readonly userId: string; readonly amountCents: number }) | undefined> {
  const { rows } = await pool.query<TransactionRow>(`SELECT ${COLUMNS} FROM rm.transactions WHERE id = $1`, [id]);
  const row = rows[0];
  return row ? { ...presentTransaction(row), userId: row.user_id, amountCents: Number(row.amount_cents) } : undefined;
}

export async function userExists(pool: pg.Pool, userId: string): Promise<boolean> {
  const { rowCount } = await pool.query('SELECT 1 FROM rm.users WHERE id = $1 AND NOT is_closed', [userId]);
  return (rowCount ?? 0) > 0;
}
