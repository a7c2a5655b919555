import type { EventStore } from '@bank/eventstore';
import { verifyReadModels, verifyStandingOrders, type StandingOrderMismatch, type VerifyMismatch } from '@bank/projector';
import type pg from 'pg';
import type { AuditMismatch } from './verifyEventLog';
import { describeValue } from './verifyRecord';

/**
 * The read models against the replay of the log: every account's balances and transactions and the books' journal
 * (the projector's verifyReadModels), every standing order (verifyStandingOrders). The one result that GET
 * /audit/verify, `npm run audit:verify` and the worker's periodic audit all read.
 */
export interface ReadModelReport {
  readonly ok: boolean;
  readonly balances: number;
  readonly standingOrders: number;
  readonly journalLines: number;
  readonly mismatches: AuditMismatch[];
  /** The customers (user ids) the mismatches concern, each once. */
  readonly customers: string[];
}

function reasonOf(field: string): string {
  if (field === 'savings' || field === 'checking') return 'balance_mismatch';
  if (field.startsWith('transactions[')) return 'transaction_mismatch';
  return 'account_mismatch';
}

/** A mismatch of the projector's verifyReadModels, in the audit report's terms. */
export function toAuditMismatch(mismatch: VerifyMismatch): AuditMismatch {
  const { stream, field } = mismatch;
  return {
    kind: 'read_model',
    stream,
    reason: reasonOf(field),
    message: `${stream}: ${field} is ${describeValue(field, mismatch.actual)} in the read model, the replay of the events gives ${describeValue(field, mismatch.expected)}`,
  };
}

const STANDING_ORDER_REASONS = { missing: 'standing_order_missing', extra: 'standing_order_extra', fields: 'standing_order_mismatch' } as const;

/** A standing order of rm.standing_orders that differs from the replay of its stream, in the audit report's terms. */
export function toStandingOrderAuditMismatch(mismatch: StandingOrderMismatch): AuditMismatch {
  const { stream, problem } = mismatch;
  const message =
    problem === 'missing'
      ? `${stream}: the order is missing from the read model (rm.standing_orders)`
      : problem === 'extra'
        ? `${stream}: the read model (rm.standing_orders) holds an order the event store does not have`
        : `${stream}: ${mismatch.fields
            .map(({ field, expected, actual }) => `${field} is ${describeValue(field, actual)} in the read model, the replay of the events gives ${describeValue(field, expected)}`)
            .join('; ')}`;
  return { kind: 'read_model', stream, reason: STANDING_ORDER_REASONS[problem], message };
}

/** Compares the read models with the replay of the log (one after the other: each reads the log). */
export async function auditReadModels(deps: { readonly pool: pg.Pool; readonly store: EventStore }): Promise<ReadModelReport> {
  const accounts = await verifyReadModels(deps);
  const orders = await verifyStandingOrders(deps);
  const mismatches = [...accounts.mismatches.map(toAuditMismatch), ...orders.mismatches.map(toStandingOrderAuditMismatch)];
  const customers = [...new Set(accounts.mismatches.map((mismatch) => mismatch.userId).filter((userId) => userId !== ''))];
  return { ok: mismatches.length === 0, balances: accounts.checked, standingOrders: orders.checked, journalLines: accounts.journalLines, mismatches, customers };
}
