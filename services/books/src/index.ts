/**
 * @bank/books — the business date and the close of business (docs/operations.md, "Closing the day"): the settings,
 * the business calendar every money command reads its date from, and the COB pipeline the worker runs.
 */
export * from './booksSettings';
export * from './businessCalendar';
export * from './cobFaults';
export * from './cobLock';
export * from './cobPipeline';
export * from './cobRunner';
export * from './dayClose';
export * from './interestStep';
export * from './projectorWait';
export * from './standingOrdersStep';
export * from './unbalancedCloses';
