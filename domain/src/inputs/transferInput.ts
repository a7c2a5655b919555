import { z } from 'zod';
import { PAYMENT_PIN_MESSAGE, PAYMENT_PIN_PATTERN, TRANSFER_MINIMUM_MESSAGE } from '../limits';
import { accountKinds, MIN_TRANSFER_CENTS } from '../primitives';
import { blankToUndefined, optionalDollarsField, optionalEnum, optionalText } from './fields';

/**
 * HTTP input of POST /transaction/transfer.
 * 400 (zod) only for PRESENT but malformed values: amount not a number / below 1 / more than 2 decimals / above
 * 1,000,000,000; unknown `from` or `accountType`; a pin that is not 6 digits. `from` is required (400).
 * Missing amount, accountType or accountNumber pass as undefined: the decider answers 'Please fill all fields'.
 * A missing pin passes as undefined: the service then sets pinMatches = false ('Incorrect payment pin').
 * Output: `amount` becomes `amountCents`.
 */
/** The transfer form's fields (before `amount` becomes `amountCents`): a standing order's form has them too. */
export const transferFields = z.object({
    from: z.enum(accountKinds, { error: 'From must be savings or checking' }),
    amount: optionalDollarsField({ minCents: MIN_TRANSFER_CENTS, minMessage: TRANSFER_MINIMUM_MESSAGE }),
    accountNumber: optionalText('Account number', 34),
    bankName: optionalText('Bank name', 100),
    routingNumber: optionalText('Routing number', 34),
    accountType: optionalEnum(accountKinds, 'Account type must be savings or checking'),
    to: optionalText('Recipient', 200),
    description: optionalText('Description', 200),
    paymentPin: z.preprocess(
      (value) => (typeof value === 'number' ? String(value) : blankToUndefined(value)),
      z.string({ error: PAYMENT_PIN_MESSAGE }).regex(PAYMENT_PIN_PATTERN, PAYMENT_PIN_MESSAGE).optional(),
    ),
});

export const transferInput = transferFields.transform(({ amount, ...rest }) => ({ ...rest, amountCents: amount }));
export type TransferInput = z.output<typeof transferInput>;
