import { schemaIdent } from './readModelSchema';

/**
 * The ACH file cycle (issue 30, docs/ach.md), kept by the ACH projection from the `achFiles` stream:
 * - ach_files: one row per file built (GET /admin/ach/files): its totals, status (created → transmitted), SHA-256,
 *   name in the outbox and text (the bytes as built; GET /admin/ach/files/:id/download), where it was transmitted,
 *   when it settled. Listed newest first (created_at, id).
 * - ach_entries: one row per entry written (its trace number): the file, the transfer (or the return the bank owed),
 *   amount, receiver, transaction code; `returned_reason` once the receiving bank returned it.
 */
export const achTables = (schemaName: string): string => {
  const s = schemaIdent(schemaName);
  return `
CREATE TABLE ${s}.ach_files (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  business_date date NOT NULL,
  effective_date date NOT NULL,
  entry_count integer NOT NULL,
  total_debit_cents bigint NOT NULL,
  total_credit_cents bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('created', 'transmitted')),
  sha256 text NOT NULL,
  name text NOT NULL,
  content text NOT NULL,
  location text,
  transmitted_at timestamptz,
  settled_at timestamptz,
  last_position text COLLATE "C" NOT NULL
);
CREATE INDEX ach_files_created_idx ON ${s}.ach_files (created_at DESC, id DESC);

CREATE TABLE ${s}.ach_entries (
  trace_number text PRIMARY KEY,
  file_id uuid NOT NULL,
  position_in_file integer NOT NULL,
  transfer_id uuid NOT NULL,
  amount_cents bigint NOT NULL,
  routing_number text NOT NULL,
  account_number text NOT NULL,
  name text NOT NULL,
  transaction_code smallint NOT NULL,
  returned_reason text,
  last_position text COLLATE "C" NOT NULL
);
CREATE INDEX ach_entries_file_idx ON ${s}.ach_entries (file_id, position_in_file);
CREATE INDEX ach_entries_transfer_idx ON ${s}.ach_entries (transfer_id);
`;
};
