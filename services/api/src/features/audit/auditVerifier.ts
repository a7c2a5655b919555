import type { EventStore } from '@bank/eventstore';
import type { Config } from '@bank/platform';
import { verifyReadModels, type VerifyMismatch } from '@bank/projector';
import type pg from 'pg';
import { postgresStreamHeads } from './postgresStreamHeads';
import type { AuditMismatch } from './verifyEventLog';
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

/**
 * The whole verification as the API and `npm run audit:verify` run it: every stream's chain (plus the PostgreSQL
 * store's stream index when the store is PostgreSQL) and verifyReadModels of the projector.
 */
export function createAuditVerifier(deps: { config: Pick<Config, 'EVENTSTORE_URL'>; pool: pg.Pool; store: EventStore }): () => Promise<VerifyReport> {
  const { pool, store } = deps;
  return () =>
    verifyRecord({
      store,
      streamHeads: deps.config.EVENTSTORE_URL ? undefined : postgresStreamHeads(pool),
      readModels: async () => {
        const result = await verifyReadModels({ pool, store });
        return { balances: result.checked, mismatches: result.mismatches.map(toAuditMismatch) };
      },
    });
}
