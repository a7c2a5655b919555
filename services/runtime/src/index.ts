export * from './startBank';
