export * from './eventStore';
export * from './errors';
export * from './eventStoreLogger';
export * from './createEventStore';
export * from './postgres';
export * from './esdb';
