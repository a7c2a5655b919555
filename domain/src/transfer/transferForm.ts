import { domainErrorMessages } from '../domainError';
import { MIN_TRANSFER_CENTS, RECIPIENT_LOOKUP_DIGITS, TRANSFER_MINIMUM_MESSAGE } from '../limits';
import { fitsAchAccountNumber } from '../ach/achEntryFields';
import { isValidRoutingNumber } from '../ach/routingNumber';
import { parseDollars, type ParseDollarsResult } from '../money';

/**
 * The transfer form's checks before it asks the server (no zod: the web app runs them on every keystroke). They
 * apply the rules the API applies (inputs/transferInput.ts, decideTransferRequest.ts, the account decider) in the
 * API's order, with the same messages, so the form never says something the server would not.
 */

/** Dollars as a person types them: "1,250.50" is read as 1250.50 (thousands separators are dropped first). */
export function parseTypedDollars(text: string): ParseDollarsResult {
  return parseDollars(text.trim().replace(/,/g, ''));
}

export type TransferAccount = 'savings' | 'checking';

/** What the form holds, as typed. `recipient` is the name the look-up found ('' when none). */
export interface TransferForm {
  readonly from: TransferAccount;
  readonly amount: string;
  readonly accountNumber: string;
  readonly accountType: TransferAccount | '';
  readonly routingNumber: string;
  readonly recipient: string;
}

/** The payer as the form knows them: their account number and balances in cents. */
export interface TransferPayer {
  readonly accountNumber: string;
  readonly balancesCents: Readonly<Record<TransferAccount, number>>;
}

/** True when the recipient look-up may run: a bank name and a whole account number of this bank. */
export function wantsRecipientLookup(form: { readonly bankName: string; readonly accountNumber: string }): boolean {
  return form.bankName.trim() !== '' && new RegExp(`^\\d{${RECIPIENT_LOOKUP_DIGITS},}$`).test(form.accountNumber.trim());
}

export interface TransferFormOptions {
  /** Whether the amount must be within the `from` balance now (default true; a standing order checks it when it pays). */
  readonly checkBalance?: boolean;
}

/** The form's first problem as the API would word it, or null when the summary may open. */
export function transferFormProblem(form: TransferForm, payer: TransferPayer, options: TransferFormOptions = {}): string | null {
  if (form.amount.trim() === '' || form.accountType === '' || form.accountNumber.trim() === '' || form.recipient.trim() === '') {
    return domainErrorMessages.fill_fields;
  }
  const amount = parseTypedDollars(form.amount);
  if (!amount.ok) return amount.message;
  if (amount.cents < MIN_TRANSFER_CENTS) return TRANSFER_MINIMUM_MESSAGE;
  if (form.accountNumber.trim() === payer.accountNumber && form.accountType === form.from) return domainErrorMessages.same_account;
  const routing = form.routingNumber.trim();
  if (routing !== '' && !isValidRoutingNumber(routing)) return domainErrorMessages.invalid_routing_number;
  // Every account number a payment can reach fits an ACH entry (this bank's are 10 digits).
  if (!fitsAchAccountNumber(form.accountNumber)) return domainErrorMessages.invalid_external_account;
  if ((options.checkBalance ?? true) && amount.cents > payer.balancesCents[form.from]) return domainErrorMessages.insufficient_balance;
  return null;
}
