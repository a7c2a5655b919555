/** Shapes of the auditor routes (docs/audit.md). Money is in dollars, except inside an event's recorded `data` (cents). */

export interface AuditUser {
  _id: string;
  firstName: string;
  lastName: string;
  email: string;
  accountNumber: string;
}

export interface FieldChange {
  field: string;
  before: string | number | boolean | null;
  after: string | number | boolean | null;
}

export interface AuditEvent {
  id: string;
  position: string;
  stream: string;
  revision: number;
  type: string;
  time: string;
  actor: { id: string | null; role: string | null };
  staff: boolean;
  data: Record<string, unknown>;
  summary: string;
  changes: FieldChange[];
  balances: { savings: number; checking: number };
}

export interface AuditTransaction {
  _id: string;
  amount: number;
  transactionType: 'debit' | 'credit';
  date: string;
  description: string;
  account: 'savings' | 'checking';
  status: string;
  balanceAfter: number;
  transferId?: string;
}

export interface BalancesAt {
  userId: string;
  at: string;
  savings: number;
  checking: number;
  /** The newest of them (200 by default). */
  transactions: AuditTransaction[];
  /** How many there were by then. */
  transactionsTotal?: number;
}

export interface StaffLogEntry {
  _id: string;
  time: string;
  actor: { id: string | null; role: string | null; email: string | null };
  action: string;
  userId: string | null;
  targetId?: string | null;
  stream: string | null;
  position: string | null;
  summary: string;
  /** Only the values the action changed. */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  details?: Record<string, unknown>;
}

export interface StaffLogFilters {
  actor?: string;
  type?: string;
  from?: string;
  to?: string;
}

export interface AuditMismatch {
  kind: 'chain' | 'stream_head' | 'schema' | 'read_model' | 'checkpoint';
  stream: string;
  revision?: number;
  position?: string;
  reason: string;
  message: string;
}

export interface VerifyReport {
  ok: boolean;
  /** `standingOrders`: orders of the read model compared with their streams (absent from older servers). */
  checked: { streams: number; events: number; balances: number; standingOrders?: number; journalLines?: number };
  mismatches: AuditMismatch[];
  /** What could not be checked, and why. */
  notes?: string[];
  /** The newest signed checkpoint the log was compared with (null: none found). */
  checkpoint?: { records: number; streams: number; writtenAt: string; position: string } | null;
}
