import { deterministicId } from '@bank/commands';
import { isUuid } from '@bank/platform';
import { findInternalPayee, type RecipientDeps } from '@bank/transfers';
import type pg from 'pg';
import { z } from 'zod';
import { cursorInstant, cursorInstantSql } from '../../http/keysetPage';
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

/** The key of the directory's order (newest first, then id): what its cursor holds. */
export const beneficiaryKey = z.object({ createdAt: cursorInstant, id: z.string().refine(isUuid) });
export type BeneficiaryKey = z.output<typeof beneficiaryKey>;

export interface BeneficiaryListRow {
  readonly beneficiary: BeneficiaryJson;
  readonly key: BeneficiaryKey;
}

/**
 * The payee directory, newest first: `limit` entries after the key `after`. Keyset on (created_at DESC, id ASC),
 * served by beneficiaries_created_idx (`created_at <= $t` is its index condition).
 */
export async function listBeneficiaries(
  pool: pg.Pool,
  options: { readonly limit: number; readonly after?: BeneficiaryKey | undefined },
): Promise<BeneficiaryListRow[]> {
  const values: unknown[] = [options.limit];
  let after = '';
  if (options.after) {
    values.push(options.after.createdAt, options.after.id);
    after = 'AND created_at <= $2::timestamptz AND (created_at < $2::timestamptz OR id > $3::uuid)';
  }
  const { rows } = await pool.query<BeneficiaryRow & { sort_created_at: string }>(
    `SELECT id, name, account_number, bank_name, ${cursorInstantSql('created_at')} AS sort_created_at
       FROM rm.beneficiaries WHERE removed_at IS NULL ${after} ORDER BY created_at DESC, id LIMIT $1`,
    values,
  );
  return rows.map((row) => ({ beneficiary: present(row), key: { createdAt: row.sort_created_at, id: row.id } }));
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
