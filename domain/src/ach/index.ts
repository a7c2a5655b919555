export * from './routingNumber';
export * from './bankingDays';
export * from './nacha';
export * from './cycle';
export * from './achEntryFields';
