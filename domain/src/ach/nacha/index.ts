export * from './nachaTypes';
export * from './returnReasons';
export * from './writeNacha';
export * from './parseNacha';
export { entryHash, fittedText, toNachaText, RECORD_LENGTH, BLOCKING_FACTOR } from './nachaFields';
export * from './outboundFile';
