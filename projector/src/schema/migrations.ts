import { achTables } from './achMigration';
import { roomForUpdates } from './fillfactorMigration';
import { interestAccrualMarks } from './interestMarkMigration';
import { interestDaysByPosition, interestTables } from './interestMigration';
import { ledgerDaysRecordedAt } from './ledgerDaysRecordedMigration';
import { ledgerTables } from './ledgerMigration';
import { schemaIdent } from './readModelSchema';
import { transactionKindInterest } from './transactionKindMigration';

/**
 * The read-model migrations, in order. Each is SQL for one schema (the live `rm` or a rebuild's `rm_build_<n>`),
 * so a rebuild creates exactly the tables the live schema has. Never edit or reorder an applied migration: add a
 * new one (additive changes only: the API reads these tables while the projector writes them; migration 11 is the
 * one exception, and says why in interestMarkMigration.ts).
 *
 * Conventions:
 * - money is bigint cents; node-postgres returns int8 as strings (Number() them: every balance is a safe integer);
 * - `last_position` / `*_position` columns hold a global log position formatted by `formatPosition`
 *   ("<commit 20 digits>:<prepare 20 digits>", collation "C" so that text order is log order). A projection only
 *   changes a row for an event whose position is greater than the row's `last_position`: applying an event twice
 *   changes nothing;
 * - uniqueness (e-mail, account number) is the write model's job (reservation streams); the read model indexes
 *   those columns without UNIQUE so that no fact can ever be refused here.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: (schema: string) => string;
}

const initialTables = (schemaName: string): string => {
  const s = schemaIdent(schemaName);
  return `
CREATE TABLE ${s}.checkpoint (
  name text PRIMARY KEY,
  position text COLLATE "C",
  position_commit numeric(20, 0),
  position_prepare numeric(20, 0),
  events_applied bigint NOT NULL DEFAULT 0,
  last_event_created_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ${s}.users (
  id uuid PRIMARY KEY,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  email_lower text NOT NULL,
  phone text NOT NULL,
  address text NOT NULL,
  state text NOT NULL,
  account_number text NOT NULL,
  role text NOT NULL CHECK (role IN ('customer', 'admin', 'auditor')),
  password_hash text NOT NULL,
  payment_pin_hash text,
  has_payment_pin boolean NOT NULL DEFAULT false,
  verification_status text NOT NULL DEFAULT 'awaiting' CHECK (verification_status IN ('awaiting', 'pending', 'verified', 'failed')),
  verification jsonb,
  profile_picture_file_id uuid,
  is_blocked boolean NOT NULL DEFAULT false,
  is_disabled boolean NOT NULL DEFAULT false,
  is_closed boolean NOT NULL DEFAULT false,
  closed_at timestamptz,
  search_text text GENERATED ALWAYS AS (
    lower(first_name || ' ' || last_name || ' ' || email || ' ' || phone || ' ' || account_number)
  ) STORED,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  last_position text COLLATE "C" NOT NULL
);
CREATE INDEX users_email_lower_idx ON ${s}.users (email_lower);
CREATE INDEX users_account_number_idx ON ${s}.users (account_number);
CREATE INDEX users_role_created_idx ON ${s}.users (role, created_at DESC, id) WHERE NOT is_closed;

CREATE TABLE ${s}.accounts (
  user_id uuid PRIMARY KEY,
  account_number text NOT NULL,
  savings_cents bigint NOT NULL DEFAULT 0,
  checking_cents bigint NOT NULL DEFAULT 0,
  is_closed boolean NOT NULL DEFAULT false,
  opened_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  last_position text COLLATE "C" NOT NULL
);

CREATE TABLE ${s}.transactions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  account text NOT NULL CHECK (account IN ('savings', 'checking')),
  direction text NOT NULL CHECK (direction IN ('credit', 'debit')),
  amount_cents bigint NOT NULL,
  description text NOT NULL,
  date timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('completed', 'pending', 'failed', 'reversed')),
  balance_after_cents bigint NOT NULL,
  transfer_id uuid,
  kind text NOT NULL CHECK (kind IN ('transfer', 'staff', 'adjustment', 'reversal', 'refund', 'credit', 'debit')),
  event_type text NOT NULL,
  actor_id uuid,
  reason text,
  reversed_by uuid,
  reversal_of uuid,
  refund_of uuid,
  created_at timestamptz NOT NULL,
  created_position text COLLATE "C" NOT NULL,
  last_position text COLLATE "C" NOT NULL
);
CREATE INDEX transactions_user_date_idx ON ${s}.transactions (user_id, date DESC, id DESC);
CREATE INDEX transactions_date_idx ON ${s}.transactions (date DESC, id DESC);
CREATE INDEX transactions_transfer_idx ON ${s}.transactions (transfer_id) WHERE transfer_id IS NOT NULL;

CREATE TABLE ${s}.transfers (
  id uuid PRIMARY KEY,
  payer_id uuid NOT NULL,
  payee_id uuid,
  from_account text NOT NULL,
  to_account text NOT NULL,
  amount_cents bigint NOT NULL,
  account_number text NOT NULL,
  bank_name text NOT NULL,
  routing_number text NOT NULL,
  recipient_name text NOT NULL,
  description text NOT NULL,
  internal boolean NOT NULL,
  status text NOT NULL CHECK (status IN ('requested', 'debited', 'credited', 'sent', 'settled', 'failed', 'refunded')),
  failure_reason text,
  debit_transaction_id uuid NOT NULL,
  credit_transaction_id uuid,
  refund_transaction_id uuid NOT NULL,
  requested_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  last_position text COLLATE "C" NOT NULL
);
CREATE INDEX transfers_payer_idx ON ${s}.transfers (payer_id, requested_at DESC);
CREATE INDEX transfers_payee_idx ON ${s}.transfers (payee_id, requested_at DESC) WHERE payee_id IS NOT NULL;
CREATE INDEX transfers_open_idx ON ${s}.transfers (status, requested_at) WHERE status IN ('requested', 'debited', 'sent', 'failed');

CREATE TABLE ${s}.beneficiaries (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  account_number text NOT NULL,
  bank_name text,
  added_by uuid NOT NULL,
  created_at timestamptz NOT NULL,
  removed_at timestamptz,
  removed_by uuid,
  last_position text COLLATE "C" NOT NULL
);
CREATE INDEX beneficiaries_account_number_idx ON ${s}.beneficiaries (account_number) WHERE removed_at IS NULL;
CREATE INDEX beneficiaries_created_idx ON ${s}.beneficiaries (created_at DESC, id) WHERE removed_at IS NULL;

CREATE TABLE ${s}.contacts (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL,
  subject text NOT NULL,
  message text NOT NULL,
  created_at timestamptz NOT NULL,
  deleted_at timestamptz,
  deleted_by uuid,
  last_position text COLLATE "C" NOT NULL
);
CREATE INDEX contacts_created_idx ON ${s}.contacts (created_at DESC, id) WHERE deleted_at IS NULL;

CREATE TABLE ${s}.card_requests (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  card_type text,
  status text NOT NULL DEFAULT 'requested',
  requested_at timestamptz NOT NULL,
  last_position text COLLATE "C" NOT NULL
);
CREATE INDEX card_requests_user_idx ON ${s}.card_requests (user_id, requested_at DESC);

CREATE TABLE ${s}.staff_audit_log (
  id uuid PRIMARY KEY,
  actor_id uuid,
  actor_role text NOT NULL,
  type text NOT NULL,
  target_user_id uuid,
  target_id text,
  details jsonb NOT NULL,
  at timestamptz NOT NULL,
  stream_id text NOT NULL,
  position text COLLATE "C" NOT NULL
);
CREATE INDEX staff_audit_log_at_idx ON ${s}.staff_audit_log (at DESC, position DESC);
CREATE INDEX staff_audit_log_actor_idx ON ${s}.staff_audit_log (actor_id, at DESC);
CREATE INDEX staff_audit_log_type_idx ON ${s}.staff_audit_log (type, at DESC);
CREATE INDEX staff_audit_log_target_idx ON ${s}.staff_audit_log (target_user_id, at DESC) WHERE target_user_id IS NOT NULL;
`;
};

/** Fails the statement (and the batch) when a projection changes a row that does not exist. */
const requireRowFunction = (schemaName: string): string => {
  const s = schemaIdent(schemaName);
  return `
CREATE FUNCTION ${s}.require_row(ok boolean, message text) RETURNS boolean LANGUAGE plpgsql AS $fn$
BEGIN
  IF NOT ok THEN
    RAISE EXCEPTION USING MESSAGE = message, ERRCODE = 'P0002';
  END IF;
  RETURN true;
END
$fn$;`;
};

/**
 * The indexes of the admin lists at size (docs/read-models.md, "Search and paging"): trigram GIN over the users'
 * search text for fragments of a name, e-mail, phone or account number (LIKE '%…%', 3 characters or more), and
 * text_pattern_ops prefix indexes for e-mails and account numbers (LIKE '…%', whatever the database's collation).
 * pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it. It is database-wide, so
 * `IF NOT EXISTS`; a rebuild's build schema finds it installed. The rebuild drops these indexes with the others
 * for its bulk load and builds them again from their definitions (prepareBulkLoad / finishBulkLoad).
 * The GIN index is `fastupdate = off`: with the default pending list, rows the projector adds one by one wait in an
 * unsorted list that every search scans, and the planner, pricing that list, prefers a full index walk until
 * (auto)vacuum flushes it. Users change rarely (balances live in accounts), so paying at insert is the cheap side.
 */
const searchIndexes = (schemaName: string): string => {
  const s = schemaIdent(schemaName);
  return `
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX users_search_trgm_idx ON ${s}.users USING gin (search_text gin_trgm_ops) WITH (fastupdate = off) WHERE role = 'customer';
CREATE INDEX users_email_prefix_idx ON ${s}.users (email_lower text_pattern_ops) WHERE role = 'customer';
CREATE INDEX users_account_prefix_idx ON ${s}.users (account_number text_pattern_ops) WHERE role = 'customer';`;
};

/** rm.standing_orders: one row per standing order (the runner's list of orders to look at, the admins' list). */
const standingOrdersTable = (schemaName: string): string => {
  const s = schemaIdent(schemaName);
  return `
CREATE TABLE ${s}.standing_orders (
  id uuid PRIMARY KEY,
  payer_id uuid NOT NULL,
  status text NOT NULL,
  from_account text NOT NULL,
  account_number text NOT NULL,
  recipient_name text NOT NULL,
  amount_cents bigint NOT NULL,
  description text NOT NULL,
  frequency text NOT NULL,
  day integer NOT NULL,
  first_date date NOT NULL,
  end_date date,
  payment_count integer,
  created_at timestamptz NOT NULL,
  last_occurrence_date date,
  last_occurrence_status text,
  last_position text COLLATE "C" NOT NULL
);
CREATE INDEX standing_orders_payer_idx ON ${s}.standing_orders (payer_id, created_at DESC);
CREATE INDEX standing_orders_active_idx ON ${s}.standing_orders (id) WHERE status = 'active';`;
};

export const migrations: readonly Migration[] = [
  { version: 1, name: 'initial read models', sql: initialTables },
  { version: 2, name: 'require_row for projections', sql: requireRowFunction },
  { version: 3, name: 'search indexes of the admin lists', sql: searchIndexes },
  { version: 4, name: 'standing orders', sql: standingOrdersTable },
  { version: 5, name: 'the books: journal, ledger accounts, clearing items, day closes, business date', sql: ledgerTables },
  { version: 6, name: 'interest: accounts, day balances, days, months, payments', sql: interestTables },
  { version: 7, name: "transactions.kind takes 'interest' (one mapping of a money event to its kind)", sql: transactionKindInterest },
  { version: 8, name: 'ACH: files and their entries', sql: achTables },
  { version: 9, name: 'interest days by accrued position (money events dated by their own position)', sql: interestDaysByPosition },
  { version: 10, name: 'ledger_days.recorded_at (a close counts for the instants after the log recorded it)', sql: ledgerDaysRecordedAt },
  { version: 11, name: 'interest accrued when read: rate sums per day, a mark per account (no daily write of every account)', sql: interestAccrualMarks },
  { version: 12, name: 'room on the page for the rows updated in place (HOT updates)', sql: roomForUpdates },
];

export const LATEST_MIGRATION = migrations.at(-1)!.version;
