/**
 * @bank/api — the /api contract on Express (design/API.md, docs/api.md). The processes that serve it are composed in
 * @bank/runtime.
 */
export * from './app';
export type { AppDeps, ProjectionReader } from './appDeps';
export { createApiMetrics, type ApiMetrics } from './operations/apiMetrics';
export { ensureFileSchema, fileIdOf, saveFile, sha256Hex } from './features/files/fileStore';
export { ensureFirstAdmin } from './staff/ensureFirstAdmin';
export { parseRateLimitConfig } from './rateLimitConfig';
export { closePasswordWorkers, hashSecret, verifySecret } from './auth/passwords';
export { loadApiKeys, type ApiKeys } from './apiKeys';
export { startMetricsServer, type MetricsServer } from './operations/metricsServer';
export { loadAuthSettings, type AuthSettings } from './auth/authSettings';
export { apiTransferSettings, type ApiTransferSettings } from './apiTransferSettings';
export { createAppBooks, type AppBooks } from './features/businessDate/appBooks';
