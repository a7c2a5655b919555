export * from './testServices';
