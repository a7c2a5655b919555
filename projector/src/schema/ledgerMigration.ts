import { chartOfAccounts } from '@bank/domain';
import { schemaIdent } from './readModelSchema';

/**
 * The books (issue 27, docs/ledger.md): the journal, the running totals per account of the chart, the open items
 * of the clearing accounts, the day closes and the business date. The journal is append-only and keyed by the
 * posting event's position and the line's number: applying an event again inserts nothing, and the totals are
 * added from the lines actually inserted (projections/ledger/journalBatch.ts), so they never count a line twice.
 * Positions are collation "C", like every position column: text order is log order.
 */
export const ledgerTables = (schemaName: string): string => {
  const s = schemaIdent(schemaName);
  // One zero row per account of the domain's chart: every account shows, moved or not.
  const rows = chartOfAccounts.map((account) => `('${account.key.replace(/'/g, "''")}')`).join(', ');
  return `
CREATE TABLE ${s}.journal_lines (
  position text COLLATE "C" NOT NULL,
  line_no smallint NOT NULL,
  event_id uuid NOT NULL,
  recorded_at timestamptz NOT NULL,
  business_date date NOT NULL,
  account_key text NOT NULL,
  side text NOT NULL,
  amount_cents bigint NOT NULL,
  customer_id uuid,
  account_type text,
  transfer_id uuid,
  actor_id uuid,
  description text NOT NULL,
  PRIMARY KEY (position, line_no)
);
CREATE INDEX journal_lines_account_idx ON ${s}.journal_lines (account_key, position);
CREATE INDEX journal_lines_customer_idx ON ${s}.journal_lines (customer_id, position);

CREATE TABLE ${s}.ledger_accounts (
  key text PRIMARY KEY,
  debits_cents numeric NOT NULL DEFAULT 0,
  credits_cents numeric NOT NULL DEFAULT 0
);
INSERT INTO ${s}.ledger_accounts (key) VALUES ${rows};

CREATE TABLE ${s}.clearing_items (
  account_key text,
  transfer_id uuid,
  amount_cents bigint NOT NULL,
  since timestamptz NOT NULL,
  PRIMARY KEY (account_key, transfer_id)
);

CREATE TABLE ${s}.ledger_days (
  business_date date PRIMARY KEY,
  closed_at timestamptz NOT NULL,
  through_position text COLLATE "C" NOT NULL,
  total_debits_cents numeric NOT NULL,
  total_credits_cents numeric NOT NULL,
  balanced boolean NOT NULL,
  journal_hash text NOT NULL,
  line_count integer NOT NULL,
  accounts jsonb NOT NULL
);

CREATE TABLE ${s}.business_date (
  id smallint PRIMARY KEY DEFAULT 1,
  first_date date,
  mode text,
  last_closed date
);
INSERT INTO ${s}.business_date (id) VALUES (1);`;
};
