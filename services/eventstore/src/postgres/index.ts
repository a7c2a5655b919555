export * from './postgresEventStore';
export * from './ensureEventStoreSchema';
export * from './tombstoneStream';
export { DEFAULT_SCHEMA, defaultNotifyChannel } from './eventStoreSchema';
export * from './appRoleGrants';
export { createNotificationListener, type NotificationListener } from './notificationListener';
