import { schemaIdent } from './readModelSchema';

/** The quoted, schema-qualified names of the read-model tables of one schema. */
export interface ReadModelTables {
  readonly schemaName: string;
  readonly schema: string;
  readonly checkpoint: string;
  readonly users: string;
  readonly accounts: string;
  readonly transactions: string;
  readonly transfers: string;
  readonly beneficiaries: string;
  readonly contacts: string;
  readonly cardRequests: string;
  readonly staffAuditLog: string;
  readonly standingOrders: string;
  readonly journalLines: string;
  readonly ledgerAccounts: string;
  readonly clearingItems: string;
  readonly ledgerDays: string;
  readonly businessDate: string;
  readonly interestAccounts: string;
  /** The view of every account's interest as of the latest accrual (migration 11; not a table: not in READ_MODEL_TABLE_NAMES). */
  readonly interestAccrued: string;
  readonly interestDayBalances: string;
  readonly interestDays: string;
  readonly interestMonths: string;
  readonly interestPayments: string;
  readonly achFiles: string;
  readonly achEntries: string;
}

/** The tables a rebuild compares and a projection writes, in a stable order (checkpoint excluded). */
export const READ_MODEL_TABLE_NAMES = [
  'users',
  'accounts',
  'transactions',
  'transfers',
  'beneficiaries',
  'contacts',
  'card_requests',
  'staff_audit_log',
  'standing_orders',
  'journal_lines',
  'ledger_accounts',
  'clearing_items',
  'ledger_days',
  'business_date',
  'interest_accounts',
  'interest_day_balances',
  'interest_days',
  'interest_months',
  'interest_payments',
  'ach_files',
  'ach_entries',
] as const;

export function readModelTables(schemaName: string): ReadModelTables {
  const schema = schemaIdent(schemaName);
  return {
    schemaName,
    schema,
    checkpoint: `${schema}.checkpoint`,
    users: `${schema}.users`,
    accounts: `${schema}.accounts`,
    transactions: `${schema}.transactions`,
    transfers: `${schema}.transfers`,
    beneficiaries: `${schema}.beneficiaries`,
    contacts: `${schema}.contacts`,
    cardRequests: `${schema}.card_requests`,
    staffAuditLog: `${schema}.staff_audit_log`,
    standingOrders: `${schema}.standing_orders`,
    journalLines: `${schema}.journal_lines`,
    ledgerAccounts: `${schema}.ledger_accounts`,
    clearingItems: `${schema}.clearing_items`,
    ledgerDays: `${schema}.ledger_days`,
    businessDate: `${schema}.business_date`,
    interestAccounts: `${schema}.interest_accounts`,
    interestAccrued: `${schema}.interest_accrued`,
    interestDayBalances: `${schema}.interest_day_balances`,
    interestDays: `${schema}.interest_days`,
    interestMonths: `${schema}.interest_months`,
    interestPayments: `${schema}.interest_payments`,
    achFiles: `${schema}.ach_files`,
    achEntries: `${schema}.ach_entries`,
  };
}
