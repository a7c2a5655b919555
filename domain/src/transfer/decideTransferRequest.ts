import type { AccountEvent } from '../account/accountDecider';
import { decideAccount } from '../account/accountDecider';
import type { AccountState } from '../account/accountState';
import { requireActiveCustomer } from '../customer/customerDecider';
import type { CustomerState } from '../customer/customerState';
import { refuse } from '../domainError';
import { MIN_TRANSFER_CENTS, TRANSFER_MINIMUM_MESSAGE } from '../limits';
import type { AccountKind } from '../primitives';
import { achEntryProblem } from '../ach/achEntryFields';
import { isValidRoutingNumber } from '../ach/routingNumber';

/**
 * POST /transaction/transfer, decided over the payer's customer and account streams.
 * The service fills: the ids (transfer and the three transaction ids, fixed now so every later step is idempotent),
 * `pinMatches` (bcrypt.compare of the submitted pin with the stored hash; false when no pin was submitted), `now`,
 * and the recipient it resolved from `accountNumber` with its own lookup.
 */
/** What the payer fills in for a payment, as the transfer form and a standing order both carry it. */
export interface PaymentOrderFields {
  readonly from: AccountKind;
  readonly amountCents?: number | undefined;
  readonly accountNumber?: string | undefined;
  readonly bankName?: string | undefined;
  readonly routingNumber?: string | undefined;
  readonly accountType?: AccountKind | undefined;
  /** The name the form showed; used only for an external recipient the directory does not know. */
  readonly to?: string | undefined;
  readonly description?: string | undefined;
}

export interface RequestTransfer extends PaymentOrderFields {
  readonly type: 'RequestTransfer';
  readonly transferId: string;
  readonly payerId: string;
  readonly debitTransactionId: string;
  /** Used only if the transfer is internal. */
  readonly creditTransactionId: string;
  /** Used only if the transfer fails. */
  readonly refundTransactionId: string;
  readonly pinMatches: boolean;
  /** The business date of the debit (default: the UTC date of `now`). */
  readonly businessDate?: string | undefined;
  readonly now: string;
}

/** Who `accountNumber` belongs to: a customer of this bank (whatever bankName says), or anyone else. */
export type TransferRecipient =
  | { readonly kind: 'internal'; readonly payeeId: string; readonly name: string }
  | { readonly kind: 'external'; readonly name?: string | undefined };

export interface TransferRequestContext {
  /** State of `customer-<payerId>`. */
  readonly customer: CustomerState;
  /** State of `account-<payerId>`: the stream the decision is appended to. */
  readonly account: AccountState;
  readonly recipient: TransferRecipient;
}

/** True when a routing number was given (not blank) and fails the ABA check digit. */
function routingNumberProblem(routingNumber: string | undefined): boolean {
  const routing = routingNumber?.trim() ?? '';
  return routing !== '' && !isValidRoutingNumber(routing);
}

/**
 * Why the recipient's bank details are refused, or undefined. A payment to another bank goes into a NACHA file, so
 * its routing number must pass the check digit (a blank one names no bank) and its account number must fit an
 * entry (`achEntryProblem`); inside the bank a routing number may be left blank, but one given must pass.
 */
export function recipientDetailsProblem(
  recipient: TransferRecipient,
  routingNumber: string | undefined,
  accountNumber: string,
): 'invalid_routing_number' | 'invalid_external_account' | undefined {
  if (recipient.kind === 'external') return achEntryProblem({ routingNumber: routingNumber ?? '', accountNumber });
  return routingNumberProblem(routingNumber) ? 'invalid_routing_number' : undefined;
}

function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

/**
 * The request: one decision on the payer's account stream (the consistency boundary of the balance), one event —
 * the payer's debit (AccountDebited, pending) carrying the transfer's intent and every id the later steps use.
 * The transfer process (transferSteps.ts) takes it from there.
 *
 * Refusals, in API.md's order (all 422): customer unknown (404) or closed; blocked; no pin; wrong pin;
 * missing amount / accountType / accountNumber ('Please fill all fields'); same account number AND same type;
 * amount below 1 dollar; the recipient's bank details (`recipientDetailsProblem`: 'Invalid routing number', 'Invalid
 * account number'); amount above the `from` balance ('You do not have enough balance').
 * Idempotent: a debit already recorded (the same request again) → [].
 */
export function decideTransferRequest(command: RequestTransfer, context: TransferRequestContext): AccountEvent[] {
  const customer = requireActiveCustomer(context.customer);
  if (customer.userId !== command.payerId) throw new TypeError('RequestTransfer.payerId must be the id of the customer state given');
  const { account, recipient } = context;
  if (account.status === 'unopened') refuse('not_found', 'Account not found');
  if (account.status === 'closed') refuse('closed');
  if (account.recorded.has(command.debitTransactionId)) return [];
  if (customer.isBlocked) refuse('blocked');
  if (customer.pinHash === null) refuse('no_pin');
  if (!command.pinMatches) refuse('wrong_pin');
  const { amountCents, accountType } = command;
  const accountNumber = command.accountNumber?.trim();
  if (amountCents === undefined || accountType === undefined || !present(accountNumber)) refuse('fill_fields');
  const toSelf = accountNumber === customer.accountNumber || (recipient.kind === 'internal' && recipient.payeeId === customer.userId);
  if (toSelf && accountType === command.from) refuse('same_account');
  if (!Number.isSafeInteger(amountCents) || amountCents < MIN_TRANSFER_CENTS) refuse('invalid_amount', TRANSFER_MINIMUM_MESSAGE);
  const detailsProblem = recipientDetailsProblem(recipient, command.routingNumber, accountNumber);
  if (detailsProblem) refuse(detailsProblem);

  const recipientName = recipient.kind === 'internal' ? recipient.name : (recipient.name ?? command.to ?? '').trim();
  const userDescription = command.description?.trim() ?? '';
  const internal = recipient.kind === 'internal';

  // The balance rule ('You do not have enough balance') is the account decider's.
  return decideAccount(
    {
      type: 'DebitForTransfer',
      transactionId: command.debitTransactionId,
      transferId: command.transferId,
      account: command.from,
      amountCents,
      description: userDescription || (recipientName ? `Transfer to ${recipientName}` : 'Transfer'),
      intent: {
        internal,
        ...(internal ? { payeeId: recipient.payeeId, creditTransactionId: command.creditTransactionId } : {}),
        refundTransactionId: command.refundTransactionId,
        accountNumber,
        bankName: command.bankName?.trim() ?? '',
        routingNumber: command.routingNumber?.trim() ?? '',
        accountType,
        recipientName,
        description: userDescription,
        requestedAt: command.now,
      },
      businessDate: command.businessDate,
      now: command.now,
    },
    account,
  );
}

/** What a recorded debit says its transfer was asked to do (the fields `isSameTransferRequest` compares). */
export interface RecordedTransferRequest {
  readonly account: AccountKind;
  readonly amountCents: number;
  readonly intent?:
    | {
        readonly accountNumber: string;
        readonly bankName: string;
        readonly routingNumber: string;
        readonly accountType: AccountKind;
        readonly description: string;
      }
    | undefined;
}

/**
 * Whether a request asks for the transfer a recorded debit made (the same Idempotency-Key sent again): the same
 * money from the same account to the same account number and type, bank, routing number and description, each as
 * the decision normalised it. `to` is not compared: the bank pays by account number, and the name it records comes
 * from its own records where it has one. A debit recorded without its intent (before debits carried it) compares by
 * account and amount alone.
 */
export function isSameTransferRequest(recorded: RecordedTransferRequest, request: PaymentOrderFields): boolean {
  if (recorded.account !== request.from || recorded.amountCents !== request.amountCents) return false;
  const intent = recorded.intent;
  if (!intent) return true;
  return (
    intent.accountNumber === (request.accountNumber?.trim() ?? '') &&
    intent.accountType === request.accountType &&
    intent.bankName === (request.bankName?.trim() ?? '') &&
    intent.routingNumber === (request.routingNumber?.trim() ?? '') &&
    intent.description === (request.description?.trim() ?? '')
  );
}
