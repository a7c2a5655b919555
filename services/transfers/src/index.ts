/**
 * @bank/transfers — money moving between accounts and banks (docs/transfers.md): the request on the request path
 * (one decision, one append: the payer's debit), the transfer process that follows the log from there, the
 * sweeper, payment pins, and how a waiting request learns the outcome.
 */
export * from './achTransmission';
export * from './faults';
export * from './paymentPin';
export * from './processCheckpoint';
export * from './queueNames';
export * from './recipient';
export * from './requestTransfer';
export * from './standingOrderRunner';
export * from './sweeper';
export * from './transferProcess';
export * from './transferSettings';
export * from './transferSignals';
export * from './transferSteps';
