import type { ChainKeys } from '@bank/commands';
import type { EventStore } from '@bank/eventstore';
import type { Config, Keyring } from '@bank/platform';
import { verifyReadModels, type VerifyMismatch } from '@bank/projector';
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

/** Where the audit finds the signed checkpoints and their keys (CHECKPOINT_DIR, CHECKPOINT_KEYS). */
export interface AuditCheckpoints {
  readonly dir: string;
  readonly keys: Keyring;
}

/**
 * The whole verification as the API and `npm run audit:verify` run it: every stream's chain (keyed with `chainKeys`),
 * the log against the signed checkpoints (a missing checkpoint is a mismatch in production), the PostgreSQL store's
 * stream index when the store is PostgreSQL, and verifyReadModels of the projector.
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
        const result = await verifyReadModels({ pool, store });
        return { balances: result.checked, mismatches: result.mismatches.map(toAuditMismatch) };
      },
    });
}
