import { randomUUID } from 'node:crypto';
import { deterministicId, loadStream, toNewEvents, type CommandContext } from '@bank/core';
import {
  decideAccount,
  decideTransferRequest,
  DomainError,
  evolveAccount,
  evolveAccountNumberReservation,
  evolveCustomer,
  evolveTransfer,
  initialAccountState,
  initialCustomerState,
  initialReservationState,
  initialTransferState,
  isDomainError,
  streams,
  type AccountEvent,
  type AccountNumberReservationEvent,
  type AccountState,
  type CustomerEvent,
  type CustomerState,
  type ReservationState,
  type TransferEvent,
  type TransferInput,
  type TransferRecipient,
  type TransferRequest,
  type TransferState,
} from '@bank/domain';
import { comparePositions, isWrongExpectedVersion, type EventStore, type Position } from '@bank/eventstore';
import type { Logger } from '@bank/platform';
import { noFaults, type FaultHook } from '../faults';
import type { TransferJobStep } from '../queues';
import { appendDecided, inspectTransfer, transferStepContext } from './transferProcess';
import type pg from 'pg';

/**
 * POST /transaction/transfer without HTTP: validates through the domain, then appends in this order
 *   1. transfer-<id>:  TransferRequested          (expected: no stream — the intent, with every id fixed)
 *   2. account-<payer>: AccountDebited (pending)  (with the transferId; deterministic event ids)
 *   3. transfer-<id>:  TransferDebited
 *   4. queues the next step (credit-<id> or send-<id>); best effort: the sweeper queues it when this fails.
 * A crash between 1 and 2 leaves a `requested` transfer that the worker abandons after TRANSFER_ABANDON_AFTER_MS
 * (this function never appends the debit later than `debitWindowMs` after the request, half of that); a crash
 * between 2 and 3 is completed by the worker (it finds the debit and records TransferDebited). A retry with the same
 * Idempotency-Key has the same transfer id and resumes where the first attempt stopped.
 */
export interface RequestTransferDeps {
  readonly store: EventStore;
  /** Read models: rm.users (recipient fallback) and rm.beneficiaries (external recipient names). */
  readonly pool: pg.Pool;
  readonly logger: Logger;
  /** Queues the job of a step (best effort). */
  readonly enqueue?: (step: TransferJobStep, transferId: string, runAt?: Date) => Promise<unknown>;
  /** Compares a submitted pin with the stored hash (the API passes bcrypt.compare). */
  readonly comparePin: (pin: string, hash: string) => Promise<boolean>;
  /** The API appends no debit later than this after the request (default 30 s, half of TRANSFER_ABANDON_AFTER_MS). */
  readonly debitWindowMs?: number;
  readonly fault?: FaultHook;
  readonly now?: () => Date;
}

export interface RequestTransferCommand {
  readonly userId: string;
  readonly input: TransferInput;
  /** The request's Idempotency-Key: the transfer id derives from it (and the user). */
  readonly idempotencyKey?: string | undefined;
  readonly requestId?: string | undefined;
}

export interface RequestTransferResult {
  readonly transferId: string;
  readonly request: TransferRequest;
  /** The position of the last event this request appended (or of the transfer's last event on a resumed request). */
  readonly position: Position | undefined;
  /** True when the transfer already existed (a retry). */
  readonly resumed: boolean;
}

export const DEFAULT_DEBIT_WINDOW_MS = 30_000;

/** The transfer id of a request: derived from the Idempotency-Key when there is one. */
export function transferIdFor(userId: string, idempotencyKey: string | undefined): string {
  return idempotencyKey ? deterministicId(`transfer:${userId}:${idempotencyKey}`) : randomUUID();
}

/** The payer's debit description, as decideTransferRequest writes it. */
export function debitDescriptionOf(request: TransferRequest): string {
  return request.description || (request.recipientName ? `Transfer to ${request.recipientName}` : 'Transfer');
}

function fullName(customer: CustomerState): string {
  return customer.status === 'unregistered' ? '' : `${customer.firstName} ${customer.lastName}`.trim();
}

/**
 * Who an account number belongs to, by the server's own lookup: an open customer of this bank (the account-number
 * reservation stream, else rm.users; confirmed on the customer's stream) is internal, whatever bankName says;
 * anyone else is external, named by the beneficiary directory or else by the form's `to`.
 */
export async function resolveRecipient(deps: Pick<RequestTransferDeps, 'store' | 'pool'>, accountNumber: string | undefined, to: string | undefined): Promise<TransferRecipient> {
  const number = accountNumber?.trim();
  if (!number) return { kind: 'external', name: to };
  const candidates: string[] = [];
  if (/^\d{10}$/.test(number)) {
    const reservation = await loadStream<ReservationState, AccountNumberReservationEvent>(
      deps.store,
      streams.accountNumber(number),
      evolveAccountNumberReservation,
      initialReservationState,
    );
    if (reservation.state.heldBy) candidates.push(reservation.state.heldBy);
    const { rows } = await deps.pool.query<{ id: string }>('SELECT id FROM rm.users WHERE account_number = $1 AND NOT is_closed', [number]);
    for (const row of rows) if (!candidates.includes(row.id)) candidates.push(row.id);
  }
  for (const userId of candidates) {
    const customer = await loadStream<CustomerState, CustomerEvent>(deps.store, streams.customer(userId), evolveCustomer, initialCustomerState);
    if (customer.state.status === 'active' && customer.state.accountNumber === number) {
      return { kind: 'internal', payeeId: userId, name: fullName(customer.state) };
    }
  }
  const { rows } = await deps.pool.query<{ name: string }>(
    'SELECT name FROM rm.beneficiaries WHERE account_number = $1 AND removed_at IS NULL ORDER BY created_at DESC LIMIT 1',
    [number],
  );
  return { kind: 'external', name: rows[0]?.name ?? to };
}

function later(a: Position | undefined, b: Position | undefined): Position | undefined {
  if (!a) return b;
  if (!b) return a;
  return comparePositions(a, b) >= 0 ? a : b;
}

/** The transfer is requested, the payer debited; validation refusals throw DomainError with the spec's texts. */
export async function requestTransfer(deps: RequestTransferDeps, command: RequestTransferCommand): Promise<RequestTransferResult> {
  const { store } = deps;
  const now = deps.now?.() ?? new Date();
  const transferId = transferIdFor(command.userId, command.idempotencyKey);
  const actor = { id: command.userId, role: 'customer' as const };
  const contextOf = (step: string): CommandContext => {
    const context = transferStepContext(transferId, step, undefined, actor);
    return command.requestId ? { ...context, metadata: { ...context.metadata, requestId: command.requestId } } : context;
  };

  const existing = await loadStream<TransferState, TransferEvent>(store, streams.transfer(transferId), evolveTransfer, initialTransferState);
  let position: Position | undefined;
  let resumed = existing.state.phase !== 'none';

  if (!resumed) {
    const [customer, account] = await Promise.all([
      loadStream<CustomerState, CustomerEvent>(store, streams.customer(command.userId), evolveCustomer, initialCustomerState),
      loadStream<AccountState, AccountEvent>(store, streams.account(command.userId), evolveAccount, initialAccountState),
    ]);
    const { input } = command;
    const recipient = await resolveRecipient(deps, input.accountNumber, input.to);
    const pinHash = customer.state.status === 'unregistered' ? null : customer.state.pinHash;
    const pinMatches = input.paymentPin !== undefined && pinHash !== null && (await deps.comparePin(input.paymentPin, pinHash));
    const decision = decideTransferRequest(
      {
        type: 'RequestTransfer',
        transferId,
        payerId: command.userId,
        debitTransactionId: deterministicId(`${transferId}:debit`),
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
        pinMatches,
        now: now.toISOString(),
      },
      { customer: customer.state, account: account.state, recipient },
    );
    const requested = decision.transfer.filter((event) => event.type === 'TransferRequested');
    try {
      const result = await store.append(
        streams.transfer(transferId),
        toNewEvents(streams.transfer(transferId), requested, { revision: undefined, lastHash: null }, contextOf('request:transfer'), now),
        'no_stream',
      );
      position = result.position;
    } catch (error) {
      // The same transfer id, requested concurrently (the same Idempotency-Key twice at once): go on with it.
      if (!isWrongExpectedVersion(error)) throw error;
      resumed = true;
    }
    await (deps.fault ?? noFaults)('api-after-requested');
  }

  // From here on, everything works from the stored request (so a retry does exactly what the first attempt did).
  const stream = await loadStream<TransferState, TransferEvent>(store, streams.transfer(transferId), evolveTransfer, initialTransferState);
  if (stream.state.phase === 'none') throw new Error(`Transfer ${transferId} vanished`);
  const request = stream.state.request;
  if (request.payerId !== command.userId) throw new DomainError('not_found', 'Transfer not found');
  if (resumed) position = stream.events.at(-1)?.position;

  if (stream.state.phase === 'requested') {
    const debitWindowMs = deps.debitWindowMs ?? DEFAULT_DEBIT_WINDOW_MS;
    const deadline = new Date(request.requestedAt).getTime() + debitWindowMs;
    try {
      position = later(
        position,
        await appendDecided<AccountState, AccountEvent>({
          store,
          streamId: streams.account(request.payerId),
          evolve: evolveAccount,
          initialState: initialAccountState,
          decide: (own) => {
            if (own.state.status !== 'unopened' && own.state.transactions[request.debitTransactionId]) return [];
            if (Date.now() > deadline) throw new TransferRequestExpiredError(transferId);
            return decideAccount(
              {
                type: 'DebitForTransfer',
                transactionId: request.debitTransactionId,
                transferId,
                account: request.from,
                amountCents: request.amountCents,
                description: debitDescriptionOf(request),
                now: request.requestedAt,
              },
              own.state,
            );
          },
          context: contextOf('request:payerAccount'),
          now,
        }),
      );
    } catch (error) {
      if (!isDomainError(error)) throw error;
      // Refused at the debit (the balance changed since the check, the account was closed): the transfer fails,
      // nothing was moved, and the customer gets the refusal.
      await appendDecided<TransferState, TransferEvent>({
        store,
        streamId: streams.transfer(transferId),
        evolve: evolveTransfer,
        initialState: initialTransferState,
        decide: (own) => (own.state.phase === 'requested' ? [{ type: 'TransferFailed', data: { transferId, reason: error.message, occurredAt: now.toISOString() } }] : []),
        context: contextOf('refused:transfer'),
        now,
      });
      throw error;
    }
    await (deps.fault ?? noFaults)('api-after-debit');

    const payer = await loadStream<AccountState, AccountEvent>(store, streams.account(request.payerId), evolveAccount, initialAccountState);
    const debit = payer.state.status === 'unopened' ? undefined : payer.state.transactions[request.debitTransactionId];
    if (debit) {
      position = later(
        position,
        await appendDecided<TransferState, TransferEvent>({
          store,
          streamId: streams.transfer(transferId),
          evolve: evolveTransfer,
          initialState: initialTransferState,
          decide: (own) =>
            own.state.phase !== 'requested'
              ? []
              : [
                  {
                    type: 'TransferDebited',
                    data: { transferId, transactionId: debit.transactionId, account: debit.account, amountCents: debit.amountCents, occurredAt: debit.occurredAt },
                  },
                ],
          // Shared with the worker's debit step: the same event, the same id.
          context: transferStepContext(transferId, 'debit:transfer', undefined, actor),
          now,
        }),
      );
    }
  }
  await (deps.fault ?? noFaults)('api-before-enqueue');

  if (deps.enqueue) {
    try {
      const view = await inspectTransfer(store, transferId);
      if (view.next !== 'done' && view.next !== 'settle') await deps.enqueue(view.next, transferId);
    } catch (error) {
      deps.logger.warn({ err: error, transferId }, 'Could not queue the next transfer step; the sweeper will');
    }
  }
  return { transferId, request, position, resumed };
}

/** The request took longer than the debit window (the worker will abandon it). */
export class TransferRequestExpiredError extends Error {
  override readonly name = 'TransferRequestExpiredError';
  constructor(readonly transferId: string) {
    super('The transfer request took too long and was not executed');
  }
}
