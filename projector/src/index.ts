/**
 * @bank/projector — the PostgreSQL read models (schema `rm`, docs/read-models.md) and the process that keeps them
 * up to date from the event log (docs/projections.md).
 */
export { startProjector, DEFAULT_MAX_BATCH, type ProjectorHandle, type ProjectorOptions, type ProjectorState, type ProjectorStatus } from './runner/projectorRunner';
export type { ProjectorLogger } from './runner/projectorLogger';
export { EventApplyError } from './runner/eventDispatcher';
export { createProjectionReader, type ProjectionReader, type ProjectionReaderOptions } from './reader/projectionReader';
export { createProjectorMetrics, PROJECTOR_METRIC_PREFIX, type ProjectorMetrics } from './metrics/projectorMetrics';
export { migrateReadModels, type MigrateResult } from './schema/migrateReadModels';
export { migrations, LATEST_MIGRATION, type Migration } from './schema/migrations';
export { READ_MODEL_SCHEMA } from './schema/readModelSchema';
export { readModelTables, READ_MODEL_TABLE_NAMES, type ReadModelTables } from './schema/readModelTables';
export { CHECKPOINT_CHANNEL, DEFAULT_PROJECTOR_NAME, CheckpointMovedError } from './checkpoint/checkpointStore';
export { defaultProjections } from './projections/defaultProjections';
export { defineProjection, streamOwner, ProjectionError, type Projection, type ProjectedEvent, type ProjectionDb, type ProjectionHandler, type ProjectionHandlers, type ProjectionTable, type Row } from './projections/projection';
export { rebuildProjections, RebuildAlreadyRunningError, type RebuildOptions, type RebuildProgress, type RebuildResult } from './rebuild/rebuildProjections';
export { verifyReadModels, type VerifyMismatch, type VerifyOptions, type VerifyResult } from './verify/verifyReadModels';
export {
  verifyStandingOrders,
  type StandingOrderFieldMismatch,
  type StandingOrderMismatch,
  type VerifyStandingOrdersOptions,
  type VerifyStandingOrdersResult,
} from './verify/verifyStandingOrders';
