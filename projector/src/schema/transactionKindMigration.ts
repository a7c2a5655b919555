import { schemaIdent } from './readModelSchema';

/**
 * rm.transactions.kind takes `interest` (domain/src/account/transactionKind.ts, the one mapping of a money event to
 * its kind): a month's interest payment, `credit` until now. The payments already projected are found by their
 * rm.interest_payments row (keyed by the AccountCredited's transaction id).
 */
export const transactionKindInterest = (schemaName: string): string => {
  const s = schemaIdent(schemaName);
  return `
ALTER TABLE ${s}.transactions DROP CONSTRAINT transactions_kind_check;
ALTER TABLE ${s}.transactions ADD CONSTRAINT transactions_kind_check
  CHECK (kind IN ('transfer', 'credit', 'debit', 'refund', 'interest', 'adjustment', 'staff', 'reversal'));
UPDATE ${s}.transactions t SET kind = 'interest'
  FROM ${s}.interest_payments p
  WHERE p.transaction_id = t.id AND t.kind = 'credit';`;
};
