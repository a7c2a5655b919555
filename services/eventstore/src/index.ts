export * from './eventStore';
export * from './errors';
