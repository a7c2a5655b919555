import type { ChainKeys } from '@bank/commands';
import type { EventStore } from '@bank/eventstore';
import type { Config, Keyring } from '@bank/platform';
import { verifyReadModels, verifyStandingOrders, type StandingOrderMismatch, type VerifyMismatch } from '@bank/projector';
import type pg from 'pg';
import type { AuditMismatch, CheckpointSource, VerifyProgress } from './verifyEventLog';
import { describeValue, verifyRecord, type VerifyReport } from './verifyRecord';

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

/** Where the audit finds the signed checkpoints and their keys (CHECKPOINT_DIR, CHECKPOINT_KEYS). */
export interface AuditCheckpoints {
  readonly dir: string;
  readonly keys: Keyring;
}

/**
 * The whole verification as the API and `npm run audit:verify` run it: every stream's chain (keyed with `chainKeys`),
 * the log against the signed checkpoints (a missing checkpoint is a mismatch in production), the PostgreSQL store's
 * stream index when the store is PostgreSQL, and the projector's verifyReadModels (balances, transactions) and
 * verifyStandingOrders (rm.standing_orders).
 */
export function createAuditVerifier(deps: {
  config: Pick<Config, 'EVENTSTORE_URL'> & Partial<Pick<Config, 'NODE_ENV'>>;
  pool: pg.Pool;
  store: EventStore;
  chainKeys?: ChainKeys;
  checkpoints?: AuditCheckpoints;
}): (onProgress?: (progress: VerifyProgress) => void) => Promise<VerifyReport> {
  const { pool, store } = deps;
  const checkpoints: CheckpointSource | undefined = deps.checkpoints
    ? { dir: deps.checkpoints.dir, keys: deps.checkpoints.keys, required: deps.config.NODE_ENV === 'production' }
    : undefined;
  return (onProgress) =>
    verifyRecord({
      store,
      ...(onProgress ? { onProgress } : {}),
      ...(deps.chainKeys ? { chainKeys: deps.chainKeys } : {}),
      ...(checkpoints ? { checkpoints } : {}),
      ...(store.streamHeads ? { streamHeads: () => store.streamHeads!() } : {}),
      readModels: async () => {
        const accounts = await verifyReadModels({ pool, store });
        const orders = await verifyStandingOrders({ pool, store });
        return {
          balances: accounts.checked,
          standingOrders: orders.checked,
          journalLines: accounts.journalLines,
          mismatches: [...accounts.mismatches.map(toAuditMismatch), ...orders.mismatches.map(toStandingOrderAuditMismatch)],
        };
      },
    });
}
