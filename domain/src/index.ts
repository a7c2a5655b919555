/**
 * @bank/domain — every rule of the bank, no I/O. Browser-safe (the web app imports the zod inputs and money helpers).
 * The catalogue of events is docs/events.md.
 */
export * from './domainError';
export * from './money';
export * from './primitives';
export * from './calendar';
export * from './streams';
export * from './decider';
export * from './overlay';

export * from './events/customerEvents';
export * from './events/reservationEvents';
export * from './events/accountEvents';
export * from './events/transferEvents';
export * from './events/directoryEvents';
export * from './events/standingOrderEvents';
export * from './events/businessDayEvents';
export * from './events/interestEvents';
export * from './events/achEvents';
export * from './events/eventSchemas';
export * from './events/maskSecrets';

export * from './inputs/fields';
export * from './inputs/dataUrl';
export * from './inputs/authInputs';
export * from './inputs/userInputs';
export * from './inputs/transferInput';
export * from './inputs/standingOrderInput';
export * from './inputs/adminInputs';
export * from './inputs/directoryInputs';
export * from './inputs/secondFactorInputs';

export * from './customer/customerCommands';
export * from './customer/customerState';
export * from './customer/customerDecider';
export * from './customer/canSignIn';

export * from './account/accountCommands';
export * from './account/accountState';
export * from './account/accountHistory';
export * from './account/transactionKind';
export * from './account/accountDecider';

export * from './transfer/transferDecider';
export * from './transfer/decideTransferRequest';
export * from './transfer/transferProcessModel';
export * from './transfer/transferForm';

export * from './reservation/reservationDecider';
export * from './beneficiary/beneficiaryDecider';
export * from './contact/contactDecider';
export * from './standingOrder/schedule';
export * from './standingOrder/standingOrderDecider';

export * from './replay/replayCustomer';

export * from './ledger/chartOfAccounts';
export * from './ledger/postingRules';
export * from './ledger/ledgerTotals';
export * from './ledger/journalHash';
export * from './businessDay/businessDayDecider';

export * from './interest/interestMath';
export * from './interest/interestRates';
export * from './interest/interestRatesDecider';
export * from './interest/interestBook';

export * from './bank';
export * from './statement/statementPeriod';
export * from './statement/statementFold';
export * from './ach';
