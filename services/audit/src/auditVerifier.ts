import type { ChainKeys } from '@bank/commands';
import type { EventStore } from '@bank/eventstore';
import type { Config, Keyring } from '@bank/platform';
import type pg from 'pg';
import { auditReadModels } from './readModelAudit';
import type { CheckpointSource, VerifyProgress } from './verifyEventLog';
import { verifyRecord, type VerifyReport } from './verifyRecord';

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
  /** The log was restored to an earlier instant (CheckpointSource.restored). */
  restored?: boolean;
}): (onProgress?: (progress: VerifyProgress) => void) => Promise<VerifyReport> {
  const { pool, store } = deps;
  const checkpoints: CheckpointSource | undefined = deps.checkpoints
    ? { dir: deps.checkpoints.dir, keys: deps.checkpoints.keys, required: deps.config.NODE_ENV === 'production', ...(deps.restored ? { restored: true } : {}) }
    : undefined;
  return (onProgress) =>
    verifyRecord({
      store,
      ...(onProgress ? { onProgress } : {}),
      ...(deps.chainKeys ? { chainKeys: deps.chainKeys } : {}),
      ...(checkpoints ? { checkpoints } : {}),
      ...(store.streamHeads ? { streamHeads: () => store.streamHeads!() } : {}),
      readModels: () => auditReadModels({ pool, store }),
    });
}
