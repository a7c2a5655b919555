/**
 * What the web app's forms check as the user types, without zod (`@bank/domain/forms`): the plain limits, money as
 * typed, the transfer form's rules and the refusal messages. The schemas that apply the same rules at the API are in
 * inputs/ and load with the forms that submit them.
 */
export * from './limits';
export { domainErrorMessages } from './domainError';
export { centsToDollars, formatUsd, moneyParseMessages, parseDollars, type ParseDollarsResult } from './money';
export * from './transfer/transferForm';
export { isValidRoutingNumber, INVALID_ROUTING_NUMBER_MESSAGE } from './ach/routingNumber';
