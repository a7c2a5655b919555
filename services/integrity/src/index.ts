/**
 * @bank/integrity — what makes the event log tamper-evident beyond its keyed hash chain (docs/audit.md): signed
 * checkpoints of every stream's head and of the global position, written by the worker role into files outside the
 * event store, and the checks of the log against them.
 */
export * from './checkpointChecks';
export * from './checkpointFiles';
export * from './checkpointRecord';
export * from './checkpointSettings';
export * from './checkpointWriter';
export * from './loadCheckpoints';
