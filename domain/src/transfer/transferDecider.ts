import type { Decider } from '../decider';
import { assertNever } from '../decider';
import { refuse } from '../domainError';
import { businessDateOf } from '../calendar';
import type { BankEvent, EventData, EventTypeOfStream } from '../events/eventSchemas';

/**
 * The transfer aggregate, stream `transfer-<transferId>`: the record of one transfer's life, written by the transfer
 * process (transferSteps.ts) after the request, which is the payer's debit on the payer's account stream.
 *   internal: TransferRequested, TransferDebited → TransferCredited                       (or → TransferFailed → TransferRefunded)
 *   external: TransferRequested, TransferDebited → TransferSent → TransferSettled          (or → TransferFailed → TransferRefunded)
 * Its state is small and evolves without updating states in place (decideTransferRecord folds speculatively).
 */

export type TransferEventType = EventTypeOfStream<'transfer'>;
export type TransferEvent = Extract<BankEvent, { type: TransferEventType }>;
export type TransferRequest = EventData<'TransferRequested'>;

export type TransferPhase = 'requested' | 'debited' | 'sent' | 'credited' | 'settled' | 'failed' | 'refunded';

export type TransferState =
  | { readonly phase: 'none' }
  | {
      readonly phase: TransferPhase;
      readonly request: TransferRequest;
      readonly failureReason: string | null;
      /** When an external transfer was put in an ACH file. */
      readonly sentAt: string | null;
      /** An ACH return: whether the entry had settled before it came back (undefined: not returned). */
      readonly returnedAfterSettlement?: boolean;
    };

export const initialTransferState: TransferState = Object.freeze({ phase: 'none' as const });

/** Commands on the transfer stream alone (the transfer process issues them; see transferSteps.ts). */
export type TransferCommand =
  /** The record starts: TransferRequested and TransferDebited, from the payer's debit. [] once started. */
  | { readonly type: 'StartTransfer'; readonly request: TransferRequest }
  | { readonly type: 'RecordPayeeCredit'; readonly now: string }
  | { readonly type: 'RecordSent'; readonly now: string }
  | { readonly type: 'RecordSettlement'; readonly now: string; readonly businessDate?: string | undefined }
  | { readonly type: 'RecordFailure'; readonly reason: string; readonly now: string }
  | { readonly type: 'RecordRefund'; readonly now: string }
  /**
   * An ACH return of an external transfer (sent or settled): TransferFailed with the code (and whether it had
   * settled) and TransferRefunded in one append. [] once failed or refunded.
   */
  | { readonly type: 'RecordReturn'; readonly returnCode: string; readonly reason: string; readonly now: string };

export function evolveTransfer(state: TransferState, event: TransferEvent): TransferState {
  if (event.type === 'TransferRequested') return { phase: 'requested', request: event.data, failureReason: null, sentAt: null };
  if (state.phase === 'none') return state;
  switch (event.type) {
    case 'TransferDebited':
      return { ...state, phase: 'debited' };
    case 'TransferSent':
      return { ...state, phase: 'sent', sentAt: event.data.occurredAt };
    case 'TransferCredited':
      return { ...state, phase: 'credited' };
    case 'TransferSettled':
      return { ...state, phase: 'settled' };
    case 'TransferFailed':
      return {
        ...state,
        phase: 'failed',
        failureReason: event.data.reason,
        ...(event.data.afterSettlement === undefined ? {} : { returnedAfterSettlement: event.data.afterSettlement }),
      };
    case 'TransferRefunded':
      return { ...state, phase: 'refunded' };
    default:
      return assertNever(event);
  }
}

type ExistingTransfer = Exclude<TransferState, { phase: 'none' }>;

export function requireTransfer(state: TransferState): ExistingTransfer {
  if (state.phase === 'none') refuse('not_found', 'Transfer not found');
  return state;
}

function refuseIfFailed(state: ExistingTransfer): void {
  if (state.phase === 'failed' || state.phase === 'refunded') refuse('transfer_failed');
}

/**
 * Decides the transfer stream's own events. A step already recorded yields []; a step that no longer applies
 * (e.g. settling a failed transfer) throws DomainError 'transfer_failed' / 'transfer_completed' / 'invalid_transfer_step'.
 */
export function decideTransfer(command: TransferCommand, state: TransferState): TransferEvent[] {
  if (command.type === 'StartTransfer') {
    // 'requested': a record started before the debit (as the request path once wrote it) lacks only TransferDebited.
    if (state.phase !== 'none' && state.phase !== 'requested') return [];
    const { request } = command;
    return [
      ...(state.phase === 'none' ? [{ type: 'TransferRequested' as const, data: request }] : []),
      {
        type: 'TransferDebited',
        data: {
          transferId: request.transferId,
          transactionId: request.debitTransactionId,
          account: request.from,
          amountCents: request.amountCents,
          occurredAt: request.requestedAt,
        },
      },
    ];
  }
  const transfer = requireTransfer(state);
  const { request } = transfer;
  const { transferId } = request;
  switch (command.type) {
    case 'RecordPayeeCredit': {
      if (!request.internal || request.payeeId === undefined || request.creditTransactionId === undefined) refuse('invalid_transfer_step');
      if (transfer.phase === 'credited') return [];
      refuseIfFailed(transfer);
      return [
        {
          type: 'TransferCredited',
          data: {
            transferId,
            transactionId: request.creditTransactionId,
            payeeId: request.payeeId,
            account: request.accountType,
            amountCents: request.amountCents,
            occurredAt: command.now,
          },
        },
      ];
    }
    case 'RecordSent':
      if (request.internal) refuse('invalid_transfer_step');
      if (transfer.phase === 'sent' || transfer.phase === 'settled') return [];
      refuseIfFailed(transfer);
      return [{ type: 'TransferSent', data: { transferId, occurredAt: command.now } }];
    case 'RecordSettlement':
      if (request.internal) refuse('invalid_transfer_step');
      if (transfer.phase === 'settled') return [];
      refuseIfFailed(transfer);
      return [
        {
          type: 'TransferSettled',
          data: {
            transferId,
            occurredAt: command.now,
            payerId: request.payerId,
            account: request.from,
            amountCents: request.amountCents,
            businessDate: businessDateOf(command),
          },
        },
      ];
    case 'RecordFailure':
      if (transfer.phase === 'failed' || transfer.phase === 'refunded') return [];
      if (transfer.phase === 'credited' || transfer.phase === 'settled') refuse('transfer_completed');
      return [{ type: 'TransferFailed', data: { transferId, reason: command.reason.trim() || 'Transfer failed', occurredAt: command.now } }];
    case 'RecordReturn': {
      if (request.internal) refuse('invalid_transfer_step');
      if (transfer.phase === 'failed' || transfer.phase === 'refunded') return [];
      return [
        {
          type: 'TransferFailed',
          data: { transferId, reason: command.reason, occurredAt: command.now, returnCode: command.returnCode, afterSettlement: transfer.phase === 'settled' },
        },
        {
          type: 'TransferRefunded',
          data: { transferId, transactionId: request.refundTransactionId, account: request.from, amountCents: request.amountCents, occurredAt: command.now },
        },
      ];
    }
    case 'RecordRefund':
      if (transfer.phase === 'refunded') return [];
      if (transfer.phase !== 'failed') refuse('invalid_transfer_step');
      return [
        {
          type: 'TransferRefunded',
          data: {
            transferId,
            transactionId: request.refundTransactionId,
            account: request.from,
            amountCents: request.amountCents,
            occurredAt: command.now,
          },
        },
      ];
    default:
      return assertNever(command);
  }
}

/**
 * Several commands on the transfer stream, each deciding on the state the previous ones left (a step's record is
 * one append: e.g. StartTransfer then RecordPayeeCredit). The state is immutable, so folding is safe.
 */
export function decideTransferRecord(commands: readonly TransferCommand[], state: TransferState): TransferEvent[] {
  const events: TransferEvent[] = [];
  let current = state;
  for (const command of commands) {
    const produced = decideTransfer(command, current);
    for (const event of produced) current = evolveTransfer(current, event);
    events.push(...produced);
  }
  return events;
}

export const transferDecider: Decider<TransferCommand, TransferEvent, TransferState> = {
  name: 'transfer',
  stateVersion: 1,
  initialState: initialTransferState,
  evolve: evolveTransfer,
  decide: decideTransfer,
};

