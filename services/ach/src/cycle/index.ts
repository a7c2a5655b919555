export * from './achCycleDeps';
export * from './buildAchFile';
export * from './transmitAchFiles';
export * from './settleAchFiles';
export * from './importAchFiles';
export * from './cutoffs';
