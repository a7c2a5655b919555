/**
 * @bank/audit — the verification of the record (docs/audit.md): every stream's hash chain, the log against the signed
 * checkpoints, every event's data, and the read models against the replay of the log. One typed result, used by the
 * API (GET /audit/verify), the CLI (npm run audit:verify) and the worker's periodic read-model audit.
 */
export * from './verifyEventLog';
export * from './verifyRecord';
export * from './readModelAudit';
export * from './auditVerifier';
