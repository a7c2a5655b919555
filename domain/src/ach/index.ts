export * from './routingNumber';
export * from './bankingDays';
export * from './nacha';
