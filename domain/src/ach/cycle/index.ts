export * from './achCycleState';
export * from './achCycleDecider';
export * from './achActions';
