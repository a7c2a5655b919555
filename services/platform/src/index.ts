export * from './config';
export * from './logger';
export * from './database';
export * from './redis';
export * from './sleep';
