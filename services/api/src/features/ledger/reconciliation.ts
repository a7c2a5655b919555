import {
  accountKinds,
  bigCentsToDollars,
  centsToDollars,
  clearingAccountKeys,
  controlAccountKeyOf,
  ledgerAccountOf,
  ledgerBalance,
  type AccountTotals,
} from '@bank/domain';
import type pg from 'pg';
import { readLedgerTotals } from './ledgerTotalsQuery';

/** GET /audit/ledger/reconciliation (dollars). */
export interface ReconciliationJson {
  readonly ok: boolean;
  readonly controls: readonly { key: string; balance: number; subledgerTotal: number; difference: number }[];
  readonly clearing: readonly { key: string; balance: number; openItems: readonly { transferId: string; amount: number; since: string }[] }[];
}

interface SubledgerRow {
  savings: string;
  checking: string;
}

/** The interest-payable subledger (docs/interest.md): the cents booked and not yet paid, of the days booked. */
const INTEREST_PAYABLE_SQL = `SELECT (
  (SELECT coalesce(sum(booked_cents - paid_cents), 0) FROM rm.interest_accrued)
  - (SELECT coalesce(sum(booked_cents), 0) FROM rm.interest_days WHERE NOT booked)
)::text AS cents`;

interface OpenItemRow {
  account_key: string;
  transfer_id: string;
  amount_cents: string;
  since: Date;
}

const ZERO: AccountTotals = { debitsCents: 0n, creditsCents: 0n };

function balanceOf(totals: ReadonlyMap<string, AccountTotals>, key: string): bigint {
  const account = ledgerAccountOf(key);
  if (!account) throw new Error(`Not an account of the chart: ${key}`);
  const { debitsCents, creditsCents } = totals.get(key) ?? ZERO;
  return ledgerBalance(account, debitsCents, creditsCents);
}

/**
 * Each control account against the sum of its customers' balances (rm.accounts), interest-payable against the
 * interest booked and not yet paid (rm.interest_accrued, rm.interest_days), each clearing account against its
 * open items (rm.clearing_items). The tables are read in one REPEATABLE READ snapshot: the projector
 * writes a batch to all of them in one transaction, so the report sees each batch whole or not at all and a
 * difference it shows is a real one, never a batch half seen.
 */
export async function reconcile(pool: pg.Pool): Promise<ReconciliationJson> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const totals = await readLedgerTotals(client);
    const subledgers = await client.query<SubledgerRow>(
      'SELECT coalesce(sum(savings_cents), 0)::text AS savings, coalesce(sum(checking_cents), 0)::text AS checking FROM rm.accounts',
    );
    const interest = await client.query<{ cents: string }>(INTEREST_PAYABLE_SQL);
    const items = await client.query<OpenItemRow>(
      'SELECT account_key, transfer_id, amount_cents::text AS amount_cents, since FROM rm.clearing_items ORDER BY account_key, since, transfer_id',
    );
    await client.query('COMMIT');
    const subledger = subledgers.rows[0] ?? { savings: '0', checking: '0' };
    const controls = accountKinds.map((kind) => {
      const key = controlAccountKeyOf[kind];
      const balance = balanceOf(totals, key);
      const subledgerTotal = BigInt(subledger[kind]);
      return { key, balanceCents: balance, subledgerCents: subledgerTotal, differenceCents: balance - subledgerTotal };
    });
    // interest-payable against the accounts' interest booked and not yet paid: an accrual the projector has counted
    // whose InterestBooked is not recorded yet (the COB between its two steps) is not in the ledger either.
    const payable = balanceOf(totals, 'interest-payable');
    const owed = BigInt(interest.rows[0]?.cents ?? '0');
    controls.push({ key: 'interest-payable', balanceCents: payable, subledgerCents: owed, differenceCents: payable - owed });
    const clearing = clearingAccountKeys.map((key) => {
      const open = items.rows.filter((row) => row.account_key === key);
      const openCents = open.reduce((sum, row) => sum + BigInt(row.amount_cents), 0n);
      return { key, balanceCents: balanceOf(totals, key), openCents, open };
    });
    const ok = controls.every((control) => control.differenceCents === 0n) && clearing.every((account) => account.balanceCents === account.openCents);
    return {
      ok,
      controls: controls.map((control) => ({
        key: control.key,
        balance: bigCentsToDollars(control.balanceCents),
        subledgerTotal: bigCentsToDollars(control.subledgerCents),
        difference: bigCentsToDollars(control.differenceCents),
      })),
      clearing: clearing.map((account) => ({
        key: account.key,
        balance: bigCentsToDollars(account.balanceCents),
        openItems: account.open.map((row) => ({ transferId: row.transfer_id, amount: centsToDollars(Number(row.amount_cents)), since: row.since.toISOString() })),
      })),
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
