export * from './routingNumber';
export * from './bankingDays';
