import type { AccountKind, User } from '../../../lib/api/types';
import { centsToDollars, parseDollars, parseTypedDollars, transferFormProblem, type TransferFormOptions, type TransferPayer } from '@bank/domain/forms';
import type { TransferRequest } from '../../../lib/api/queries/useTransfer';

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

/** The payer's account number and balances (dollars from the API) in the domain's terms. */
function payerOf(user: Pick<User, 'account'>): TransferPayer {
  const cents = (dollars: number) => {
    const parsed = parseDollars(dollars);
    return parsed.ok ? parsed.cents : 0;
  };
  return { accountNumber: user.account.number, balancesCents: { savings: cents(user.account.savings), checking: cents(user.account.checking) } };
}

/**
 * Step 1's checks: the domain's transfer-form rules (design/API.md's corrected rules, in the server's order, with its
 * messages). `recipient` is the name the look-up filled in ('' when it found nothing, failed or has not run).
 * Returns the message to show, or null when the summary may open.
 */
export function validateTransfer(draft: TransferDraft, user: Pick<User, 'account'>, recipient: string, options: TransferFormOptions = {}): string | null {
  return transferFormProblem({ ...draft, recipient }, payerOf(user), options);
}

/** The body of POST /transaction/transfer (and of a standing order) from the form, the recipient found and the pin. */
export function toTransferRequest(draft: TransferDraft, to: string, paymentPin: string): TransferRequest {
  const amount = parseTypedDollars(draft.amount);
  return {
    from: draft.from,
    amount: amount.ok ? centsToDollars(amount.cents) : Number.NaN,
    accountNumber: draft.accountNumber.trim(),
    bankName: draft.bankName.trim(),
    routingNumber: draft.routingNumber.trim(),
    accountType: draft.accountType as AccountKind,
    to,
    description: draft.description.trim(),
    paymentPin,
  };
}
