export * from './esdbEventStore';
