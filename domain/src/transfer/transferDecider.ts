import type { Decider } from '../decider';
import { assertNever } from '../decider';
import { refuse } from '../domainError';
import type { BankEvent, EventData, EventTypeOfStream } from '../events/eventSchemas';

/**
 * The transfer aggregate, stream `transfer-<transferId>`: the record of one transfer's life.
 *   internal: TransferRequested, TransferDebited → TransferCredited                       (or → TransferFailed → TransferRefunded)
 *   external: TransferRequested, TransferDebited → TransferSent → TransferSettled          (or → TransferFailed → TransferRefunded)
 * The request is decided by decideTransferRequest; the later steps by decideTransferStep (transferProcess.ts), which
 * uses this decider for the transfer stream's own events.
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
    };

export const initialTransferState: TransferState = { phase: 'none' };

/** Commands on the transfer stream alone (decideTransferStep wraps them with the account effects). */
export type TransferCommand =
  | { readonly type: 'RecordPayeeCredit'; readonly now: string }
  | { readonly type: 'RecordSent'; readonly now: string }
  | { readonly type: 'RecordSettlement'; readonly now: string }
  | { readonly type: 'RecordFailure'; readonly reason: string; readonly now: string }
  | { readonly type: 'RecordRefund'; readonly now: string };

export function evolveTransfer(state: TransferState, event: TransferEvent): TransferState {
  if (event.type === 'TransferRequested') return { phase: 'requested', request: event.data, failureReason: null };
  if (state.phase === 'none') return state;
  switch (event.type) {
    case 'TransferDebited':
      return { ...state, phase: 'debited' };
    case 'TransferSent':
      return { ...state, phase: 'sent' };
    case 'TransferCredited':
      return { ...state, phase: 'credited' };
    case 'TransferSettled':
      return { ...state, phase: 'settled' };
    case 'TransferFailed':
      return { ...state, phase: 'failed', failureReason: event.data.reason };
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
      return [{ type: 'TransferSettled', data: { transferId, occurredAt: command.now } }];
    case 'RecordFailure':
      if (transfer.phase === 'failed' || transfer.phase === 'refunded') return [];
      if (transfer.phase === 'credited' || transfer.phase === 'settled') refuse('transfer_completed');
      return [{ type: 'TransferFailed', data: { transferId, reason: command.reason.trim() || 'Transfer failed', occurredAt: command.now } }];
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

export const transferDecider: Decider<TransferCommand, TransferEvent, TransferState> = {
  initialState: initialTransferState,
  evolve: evolveTransfer,
  decide: decideTransfer,
};

