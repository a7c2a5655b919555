import type { AccountTotals } from '@bank/domain';
import type pg from 'pg';

/** A pool or a client inside a transaction. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

interface TotalsRow {
  key: string;
  debits: string;
  credits: string;
}

/**
 * The debits and credits of every account as the projector has them (rm.ledger_accounts, numeric: read as text,
 * so that no total passes through a floating-point number). Accounts of the chart missing here count as zero
 * (trialBalanceOf lists every one).
 */
export async function readLedgerTotals(db: Queryable): Promise<Map<string, AccountTotals>> {
  const { rows } = await db.query<TotalsRow>('SELECT key, debits_cents::text AS debits, credits_cents::text AS credits FROM rm.ledger_accounts');
  return new Map(rows.map((row) => [row.key, { debitsCents: BigInt(row.debits), creditsCents: BigInt(row.credits) }]));
}
