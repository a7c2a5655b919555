export * from './canonicalJson';
export * from './deterministicId';
export * from './hashChain';
export * from './handleCommand';
