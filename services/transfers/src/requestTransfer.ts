import { randomUUID } from 'node:crypto';
import { deterministicId, type CommandHandler } from '@bank/commands';
import { accountDecider, customerDecider, decideTransferRequest, streams, transactionStatusOf, type CustomerState, type EventData, type TransferInput } from '@bank/domain';
import type { Position } from '@bank/eventstore';
import type { Keyring } from '@bank/platform';
import type pg from 'pg';
import { noFaults, type FaultHook } from './faults';
import { isLegacyPinHash, verifyPin, type LegacyPinVerifier } from './paymentPin';
import { resolveRecipient } from './recipient';
import type { OutcomeWaiter, TransferSignals } from './transferSignals';
import type { BusinessDateSource } from './transferSteps';

/**
 * POST /transaction/transfer without HTTP. On the request path: ONE decision and ONE append — the payer's debit
 * (pending) on the payer's account stream, carrying the transfer's intent and every id, all fixed here from the
 * Idempotency-Key. The transfer process takes it from the log. An internal transfer then waits (woken by the
 * process's outcome, never polling, at most `creditWaitMs`) until the payee's credit is durable and the debit
 * completed; an external one answers pending at once.
 */
export interface TransferRequestDeps {
  readonly commands: CommandHandler;
  /** The read models (recipient look-up). */
  readonly pool: pg.Pool;
  readonly signals: TransferSignals;
  /** Keys of the payment pins' keyed hashes (PIN_KEYS). Not needed for payments authorised earlier (`authorised`). */
  readonly pinKeys?: Keyring | undefined;
  /** Checks a pin stored as bcrypt before the keyed scheme (off the event loop). */
  readonly verifyLegacyPin?: LegacyPinVerifier;
  readonly creditWaitMs: number;
  /** Counts pin comparisons against the user's limit of wrong pins (the API's, in Redis); none in tests of the core. */
  readonly pinAttempts?: PinAttemptGuard;
  readonly fault?: FaultHook;
  readonly now?: () => Date;
  /** The business date of the payer's debit (the calendar's open date); default the UTC date of `now`. */
  readonly businessDate?: BusinessDateSource;
}

export interface TransferRequestCommand {
  readonly userId: string;
  readonly input: TransferInput;
  /** The request's Idempotency-Key: the transfer id derives from it (and the user). */
  readonly idempotencyKey?: string | undefined;
  readonly requestId?: string | undefined;
  /**
   * A payment the customer authorised earlier with their payment pin (an occurrence of a standing order): the pin is
   * not asked again (input.paymentPin is ignored); every other rule of a transfer applies. Its transfer id is given.
   */
  readonly authorised?: { readonly standingOrderId: string; readonly transferId: string } | undefined;
  /**
   * Runs after the pin check and before the decision (the API's idempotency record: a remembered answer is sent
   * again instead of deciding, by throwing). Nothing is appended when it throws.
   */
  readonly beforeDecision?: () => Promise<void>;
  /** A repeated request of an internal transfer hands its outcome's wait to the caller (`repeated.outcome`). */
  readonly keepRepeatOutcome?: boolean;
}

export type DebitData = EventData<'AccountDebited'>;

export interface TransferAnswer {
  readonly transferId: string;
  readonly debitTransactionId: string;
  /** The debit as decided (undefined on a repeated request: it was stored by the first one). */
  readonly debit: DebitData | undefined;
  /** The debit's status now: completed (internal, credited), failed (refunded), or pending. */
  readonly status: 'completed' | 'failed' | 'pending';
  readonly internal: boolean;
  /** Position to read the answer's effects at (the outcome's, else the debit's). */
  readonly position: Position | undefined;
  /** A repeated request (the debit was recorded by an earlier one, nothing decided now): see RepeatedTransfer. */
  readonly repeated?: RepeatedTransfer;
}

/** What a repeated request learns from the payer's account, as the write side knows it now. */
export interface RepeatedTransfer {
  /** The debit's status on the account: pending while the transfer process has not finished it. */
  readonly debitStatus: 'pending' | 'completed' | 'failed';
  /**
   * With `keepRepeatOutcome`, for a recipient of this bank: the wait for the outcome, registered before the decision
   * like the first request's (an outcome still to come is not missed). The caller waits or cancels it.
   */
  readonly outcome?: OutcomeWaiter;
}

/** The command id of a transfer's request: its debit's event id derives from it (`commandEventId`, index 0). */
export function transferRequestCommandId(transferId: string): string {
  return `transfer:${transferId}:request`;
}

/** The transfer id of a request: derived from the Idempotency-Key when there is one. */
export function transferIdFor(userId: string, idempotencyKey: string | undefined): string {
  return idempotencyKey ? deterministicId(`transfer:${userId}:${idempotencyKey}`) : randomUUID();
}

/**
 * Where the limit of wrong payment pins is kept. `attempt` runs the comparison as one counted attempt of the user's:
 * it throws (429) when the user has none left, BEFORE comparing, and a comparison answering false counts as a failure.
 */
export interface PinAttemptGuard {
  attempt(userId: string, check: () => Promise<boolean>): Promise<boolean>;
  /**
   * The right pin's fast path, asked BEFORE any comparison: true when an attempt taken now would be let through (no
   * block, and the failures plus the comparisons in flight leave a place), in one read. A right pin then goes through
   * with the net effect of `attempt` with a right pin (take a place, compare, give it back) done at that instant; a
   * wrong one, or false here, goes through `attempt` (which compares in its place, counted).
   */
  admitsRightPin?(userId: string): Promise<boolean>;
}

/**
 * The pin check of a transfer or standing order (counted against the user's wrong pins): false when none is given or
 * set, and for a blocked customer, whom the decision refuses before the pin (API.md's order): the pin is then not
 * compared, so it neither counts as a wrong one nor meets the wrong pins' limit (429) instead of the block (422).
 */
export async function paymentPinMatches(deps: Pick<TransferRequestDeps, 'pinKeys' | 'verifyLegacyPin' | 'pinAttempts'>, userId: string, customer: CustomerState, pin: string | undefined): Promise<boolean> {
  if (pin === undefined || customer.status === 'unregistered' || customer.isBlocked || customer.pinHash === null) return false;
  const stored = customer.pinHash;
  const keys = deps.pinKeys;
  if (!keys) throw new Error('No payment-pin keys (PIN_KEYS) to check a pin with');
  const check = () => verifyPin(keys, userId, pin, stored, deps.verifyLegacyPin);
  const guard = deps.pinAttempts;
  if (!guard) return check();
  // A keyed pin compares in a microsecond. The limit is read first, once (one Redis read): when it admits an attempt
  // now, a right pin goes through at once. A wrong pin, and any pin the limit does not admit now, goes through the
  // counted attempt, which compares in its place or refuses (429) without comparing. So no pin is compared uncounted
  // while the limit is met, and right and wrong pins then cost the same work (no timing to tell them apart by). A
  // bcrypt pin (tens of ms) is compared only inside the counted attempt.
  if (guard.admitsRightPin && !isLegacyPinHash(stored) && (await guard.admitsRightPin(userId)) && (await check())) return true;
  return guard.attempt(userId, check);
}

/** The id of a transfer's debit transaction (the payer's row in the transaction list), derived from the transfer's id. */
export function debitTransactionIdOf(transferId: string): string {
  return deterministicId(`${transferId}:debit`);
}

/** Validation refusals throw DomainError with the spec's texts (blocked, no pin, wrong pin, …, not enough balance). */
export async function requestTransfer(deps: TransferRequestDeps, command: TransferRequestCommand): Promise<TransferAnswer> {
  const { userId, input } = command;
  const { authorised } = command;
  const transferId = authorised?.transferId ?? transferIdFor(userId, command.idempotencyKey);
  const debitTransactionId = debitTransactionIdOf(transferId);
  const [customer, recipient] = await Promise.all([
    deps.commands.read(customerDecider, streams.customer(userId), (state) => state),
    resolveRecipient(deps, input.accountNumber, input.to),
  ]);
  const matches = authorised ? true : await paymentPinMatches(deps, userId, customer, input.paymentPin);
  await command.beforeDecision?.();
  const waiter = recipient.kind === 'internal' ? deps.signals.expect(transferId) : undefined;
  const now = (deps.now?.() ?? new Date()).toISOString();
  const businessDate = await deps.businessDate?.();
  let result;
  try {
    result = await deps.commands.execute({
      decider: accountDecider,
      streamId: streams.account(userId),
      decide: (account) =>
        decideTransferRequest(
          {
            type: 'RequestTransfer',
            transferId,
            payerId: userId,
            debitTransactionId,
            creditTransactionId: deterministicId(`${transferId}:credit`),
            refundTransactionId: deterministicId(`${transferId}:refund`),
            from: input.from,
            amountCents: input.amountCents,
            accountNumber: input.accountNumber,
            bankName: input.bankName,
            routingNumber: input.routingNumber,
            accountType: input.accountType,
            to: input.to,
            description: input.description,
            pinMatches: matches,
            now,
            ...(businessDate ? { businessDate } : {}),
          },
          { customer, account, recipient },
        ),
      context: {
        commandId: transferRequestCommandId(transferId),
        metadata: {
          actorId: userId,
          actorRole: 'customer',
          correlationId: transferId,
          ...(command.requestId ? { requestId: command.requestId } : {}),
          ...(authorised ? { standingOrderId: authorised.standingOrderId } : {}),
        },
      },
      commandType: 'RequestTransfer',
    });
  } catch (error) {
    waiter?.cancel();
    throw error;
  }
  await (deps.fault ?? noFaults)('after-debit', transferId);
  const decided = result.events[0];
  const debit = decided?.type === 'AccountDebited' ? decided.data : undefined;
  const internal = recipient.kind === 'internal';
  if (!debit) {
    const keep = waiter !== undefined && command.keepRepeatOutcome === true && !authorised;
    if (!keep) waiter?.cancel();
    const debitStatus = transactionStatusOf(result.state, debitTransactionId) ?? 'pending';
    return { transferId, debitTransactionId, debit, status: 'pending', internal, position: result.position, repeated: { debitStatus, ...(keep ? { outcome: waiter } : {}) } };
  }
  if (!waiter) return { transferId, debitTransactionId, debit, status: 'pending', internal, position: result.position };
  const outcome = await waiter.wait(deps.creditWaitMs);
  return {
    transferId,
    debitTransactionId,
    debit,
    status: outcome?.status ?? 'pending',
    internal,
    position: outcome?.position ?? result.position,
  };
}
