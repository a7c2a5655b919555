import type { AccountKind, User } from '../../../lib/api/types';
import { dollarsToCents, parseAmount } from '../../../lib/api/queries/parseAmount';

/** What the transfer form holds, as typed (the recipient's name `to` comes from the lookup). */
export interface TransferDraft {
  from: AccountKind;
  amount: string;
  accountNumber: string;
  bankName: string;
  routingNumber: string;
  accountType: AccountKind | '';
  description: string;
}

export const emptyTransferDraft: TransferDraft = {
  from: 'savings',
  amount: '',
  accountNumber: '',
  bankName: '',
  routingNumber: '',
  accountType: '',
  description: '',
};

export const MIN_TRANSFER_CENTS = 100;
export const ROUTING_NUMBER_MIN_DIGITS = 9;
/** The recipient lookup starts above this many digits of account number. */
export const LOOKUP_MIN_DIGITS = 10;

/** True when the lookup may run: a bank name is set and the account number has more than 9 digits. */
export function wantsLookup(draft: Pick<TransferDraft, 'accountNumber' | 'bankName'>): boolean {
  return draft.bankName.trim() !== '' && new RegExp(`^\\d{${LOOKUP_MIN_DIGITS},}$`).test(draft.accountNumber.trim());
}

/**
 * Step 1's checks (design/API.md's corrected rules, in the server's order). `recipient` is the name the lookup
 * filled in ('' when it found nothing, failed or has not run): without one the transfer has no recipient, so
 * 'Please fill all fields' (spec §5). Returns the message to show, or null when the summary may open.
 */
export function validateTransfer(draft: TransferDraft, user: Pick<User, 'account'>, recipient: string, options: { checkBalance?: boolean } = {}): string | null {
  if (draft.amount.trim() === '' || draft.accountType === '' || draft.accountNumber.trim() === '' || recipient.trim() === '') {
    return 'Please fill all fields';
  }
  const amount = parseAmount(draft.amount);
  if (!amount.ok) return amount.message;
  if (amount.cents < MIN_TRANSFER_CENTS) return 'Amount must be at least 1';
  const routing = draft.routingNumber.trim();
  if (routing !== '' && !new RegExp(`^\\d{${ROUTING_NUMBER_MIN_DIGITS},}$`).test(routing)) {
    return `Routing number must be at least ${ROUTING_NUMBER_MIN_DIGITS} digits`;
  }
  if (draft.accountNumber.trim() === user.account.number && draft.accountType === draft.from) return 'You cannot transfer to the same account';
  if ((options.checkBalance ?? true) && amount.cents > dollarsToCents(user.account[draft.from])) return 'You do not have enough balance';
  return null;
}
