export * from './auditCheck';
export * from './metrics';
export * from './startWorker';
