export * from './routingNumber';
