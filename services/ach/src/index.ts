export * from './achSettings';
export * from './achTransport';
export { createAchTransport } from './createAchTransport';
export { createDirectoryTransport } from './directoryTransport';
export { createSftpTransport, hostKeyFingerprint, readPrivateKey, type SftpTransportOptions } from './sftpTransport';
export * from './cycle';
export * from './odfi/returnsFile';
