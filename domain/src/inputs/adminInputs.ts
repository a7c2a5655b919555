import { z } from 'zod';
import { MAX_REASON_LENGTH, PAYMENT_PIN_MESSAGE, PAYMENT_PIN_PATTERN } from '../limits';
import { accountKinds, ACCOUNT_NUMBER_PATTERN, directions, verificationStatuses } from '../primitives';
import { balanceDollarsField, blankToUndefined, optionalDollarsField, optionalEmail, optionalEnum, optionalText } from './fields';
import { optionalCalendarDateField } from './userInputs';

/**
 * HTTP input of PUT /user/admin/account/:id: {savings, checking, number, reason?}.
 * All of savings, checking and number are required (400 'All fields are required'); balances ≥ 0.
 * Output: {savingsCents, checkingCents, accountNumber, reason?}.
 */
export const adminAccountInput = z
  .object({
    savings: balanceDollarsField('Savings'),
    checking: balanceDollarsField('Checking'),
    number: z.preprocess(
      (value) => (typeof value === 'number' ? String(value) : blankToUndefined(value)),
      z.string({ error: 'All fields are required' }).regex(ACCOUNT_NUMBER_PATTERN, 'Account number must be 10 digits'),
    ),
    reason: optionalText('Reason', MAX_REASON_LENGTH),
  })
  .transform(({ savings, checking, number, reason }) => ({ savingsCents: savings, checkingCents: checking, accountNumber: number, reason }));
export type AdminAccountInput = z.output<typeof adminAccountInput>;

/**
 * HTTP input of PUT /user/admin/:id. Missing or empty firstName, lastName, email, phone, location.address,
 * location.state pass as undefined and the decider answers 'All fields are required' (422).
 * paymentPin: exactly 6 digits when present (400 otherwise); the API hashes it. Output is flat:
 * {firstName?, lastName?, email?, phone?, address?, state?, verificationStatus?, isBlocked?, isDisabled?, paymentPin?}.
 */
export const adminUserInput = z
  .object({
    firstName: optionalText('First name', 100),
    lastName: optionalText('Last name', 100),
    email: optionalEmail(),
    phone: optionalText('Phone', 40),
    location: z.preprocess(
      (value) => (value === undefined || value === null ? {} : value),
      z.object({ address: optionalText('Address', 200), state: optionalText('State', 100) }, { error: 'Location must be an object' }),
    ),
    verificationStatus: optionalEnum(verificationStatuses, 'Verification status must be awaiting, pending, verified or failed'),
    isBlocked: z.boolean({ error: 'isBlocked must be true or false' }).optional(),
    isDisabled: z.boolean({ error: 'isDisabled must be true or false' }).optional(),
    paymentPin: z.preprocess(
      (value) => (typeof value === 'number' ? String(value) : blankToUndefined(value)),
      z.string({ error: PAYMENT_PIN_MESSAGE }).regex(PAYMENT_PIN_PATTERN, PAYMENT_PIN_MESSAGE).optional(),
    ),
  })
  .transform(({ location, ...rest }) => ({ ...rest, address: location.address, state: location.state }));
export type AdminUserInput = z.output<typeof adminUserInput>;

/**
 * HTTP input of POST /transaction/admin/:userId: {amount, transactionType, date, description, account?, reason?}.
 * Missing amount/transactionType/date/description pass as undefined → decider 'All fields are required' (422);
 * malformed values are 400. `account` defaults to savings. Output: {amountCents?, direction?, date?, description?, account}.
 */
export const adminTransactionInput = z
  .object({
    amount: optionalDollarsField({ minCents: 1 }),
    transactionType: optionalEnum(directions, 'Transaction type must be credit or debit'),
    date: optionalCalendarDateField,
    description: optionalText('Description', 200),
    account: optionalEnum(accountKinds, 'Account must be savings or checking').transform((value) => value ?? 'savings'),
    reason: optionalText('Reason', MAX_REASON_LENGTH),
  })
  .transform(({ amount, transactionType, ...rest }) => ({ ...rest, amountCents: amount, direction: transactionType }));
export type AdminTransactionInput = z.output<typeof adminTransactionInput>;
