export * from './childProcess';
export * from './transferTestKit';
export * from './waitUntil';
