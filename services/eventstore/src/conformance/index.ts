export * from './eventStoreConformance';
export type { ConcurrentWritersSettings } from './concurrentWritersCases';
