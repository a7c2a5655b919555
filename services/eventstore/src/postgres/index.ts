export * from './postgresEventStore';
export * from './ensureEventStoreSchema';
export { DEFAULT_SCHEMA, defaultNotifyChannel } from './eventStoreSchema';
