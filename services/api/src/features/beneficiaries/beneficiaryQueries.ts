import { deterministicId } from '@bank/commands';
import { findInternalPayee, type RecipientDeps } from '@bank/transfers';
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
 * The recipient look-up: this bank's own open customer with this account number (by the transfer's own rule,
 * findInternalPayee, so the name shown is the one the transfer credits; by the holder's name only, its `_id`
 * derived from the number, never the user's id), then the directory entries with it.
 */
export async function lookUpAccount(deps: RecipientDeps, accountNumber: string): Promise<BeneficiaryJson[]> {
  const [payee, directory] = await Promise.all([
    findInternalPayee(deps, accountNumber),
    deps.pool.query<BeneficiaryRow>(
      'SELECT id, name, account_number, bank_name FROM rm.beneficiaries WHERE account_number = $1 AND removed_at IS NULL ORDER BY created_at DESC, id',
      [accountNumber],
    ),
  ]);
  const own = payee ? [{ _id: deterministicId(`account-lookup:${accountNumber}`), name: payee.name, accountNumber }] : [];
  return [...own, ...directory.rows.map(present)];
}
