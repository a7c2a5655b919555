import { deterministicId } from '@bank/commands';
import type pg from 'pg';
import type { BeneficiaryJson } from './beneficiaryShape';

interface BeneficiaryRow {
  readonly id: string;
  readonly name: string;
  readonly account_number: string;
  readonly bank_name: string | null;
}

function present(row: BeneficiaryRow): BeneficiaryJson {
  return { _id: row.id, name: row.name, accountNumber: row.account_number, ...(row.bank_name ? { bankName: row.bank_name } : {}) };
}

/** The payee directory, newest first. */
export async function listBeneficiaries(pool: pg.Pool): Promise<BeneficiaryJson[]> {
  const { rows } = await pool.query<BeneficiaryRow>(
    'SELECT id, name, account_number, bank_name FROM rm.beneficiaries WHERE removed_at IS NULL ORDER BY created_at DESC, id',
  );
  return rows.map(present);
}

/**
 * The recipient look-up: directory entries with this account number, then this bank's own (open) customer account
 * with it, by the account holder's name only (its `_id` is derived from the number, never the user's id).
 */
export async function lookUpAccount(pool: pg.Pool, accountNumber: string): Promise<BeneficiaryJson[]> {
  const [directory, customers] = await Promise.all([
    pool.query<BeneficiaryRow>(
      'SELECT id, name, account_number, bank_name FROM rm.beneficiaries WHERE account_number = $1 AND removed_at IS NULL ORDER BY created_at DESC, id',
      [accountNumber],
    ),
    pool.query<{ name: string }>(
      `SELECT first_name || ' ' || last_name AS name FROM rm.users
       WHERE account_number = $1 AND role = 'customer' AND NOT is_closed ORDER BY created_at LIMIT 1`,
      [accountNumber],
    ),
  ]);
  const own = customers.rows.map((row) => ({ _id: deterministicId(`account-lookup:${accountNumber}`), name: row.name, accountNumber }));
  return [...own, ...directory.rows.map(present)];
}
