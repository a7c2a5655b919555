import { loadStream, toNewEvents, type CommandContext, type DomainEventLike, type StreamState } from '@bank/core';
import {
  decideTransferStep,
  evolveAccount,
  evolveTransfer,
  initialAccountState,
  initialTransferState,
  isDomainError,
  nextTransferStep,
  streams,
  type AccountEvent,
  type AccountState,
  type TransferEvent,
  type TransferRequest,
  type TransferState,
  type TransferStepCommand,
  type TransferStepResult,
} from '@bank/domain';
import { isWrongExpectedVersion, type EventStore, type Position } from '@bank/eventstore';
import type { Logger } from '@bank/platform';
import { noFaults, type FaultHook } from '../faults';
import type { SettlementNetwork } from './settlement';

/**
 * The transfer process after the request (see docs/transfers.md). Every step reads the transfer stream and the
 * accounts it touches, decides with the domain (decideTransferStep), and appends in the domain's order: payee
 * account, payer account, transfer stream last. The transfer stream's event marks the step done; until it is
 * appended, running the step again re-decides from the streams and appends only what is missing (every account
 * effect is keyed by a transaction id fixed at request time). Event ids derive from the transfer id and the step, so
 * even a blind re-append is a no-op at the store.
 */

/** What a transfer needs next. */
export type ProcessStep =
  /** requested, no TransferDebited yet: record the payer's debit (or abandon the transfer) */
  | 'debit'
  /** internal, debited: credit the payee */
  | 'credit'
  /** external, debited: hand it to settlement */
  | 'send'
  /** external, sent: settle or fail (after SETTLEMENT_DELAY_MS) */
  | 'settle'
  /** failed with the payer debited and not refunded: refund */
  | 'refund'
  /** nothing: completed, refunded, failed before any debit, or no such transfer */
  | 'done';

export const processSteps: readonly ProcessStep[] = ['debit', 'credit', 'send', 'settle', 'refund'];

export interface TransferView {
  readonly transferId: string;
  readonly stream: StreamState<TransferState>;
  readonly state: TransferState;
  /** The request, undefined when the stream does not exist. */
  readonly request: TransferRequest | undefined;
  /** When TransferSent was recorded (external transfers). */
  readonly sentAt: Date | undefined;
  /** For a failed transfer: whether the payer's debit is on the account and not yet refunded. */
  readonly refundDue: boolean;
  readonly next: ProcessStep;
}

export interface TransferProcessDeps {
  readonly store: EventStore;
  readonly logger: Logger;
  readonly settlement: SettlementNetwork;
  /** A transfer still `requested` this long after its request is abandoned (see workerConfig.ts). */
  readonly abandonAfterMs: number;
  readonly fault?: FaultHook;
  readonly now?: () => Date;
}

/** The step cannot run yet (a request the API may still be completing); try again at `retryAt`. */
export class StepNotReadyError extends Error {
  override readonly name = 'StepNotReadyError';
  constructor(
    message: string,
    readonly retryAt: Date,
  ) {
    super(message);
  }
}

export const ABANDONED_REASON = 'The transfer request was not completed';

// ---------------------------------------------------------------------------------------------------------------
// reading

export async function loadTransferStream(store: EventStore, transferId: string): Promise<StreamState<TransferState>> {
  return loadStream<TransferState, TransferEvent>(store, streams.transfer(transferId), evolveTransfer, initialTransferState);
}

export async function loadAccount(store: EventStore, userId: string): Promise<StreamState<AccountState>> {
  return loadStream<AccountState, AccountEvent>(store, streams.account(userId), evolveAccount, initialAccountState);
}

function hasTransaction(account: AccountState, transactionId: string): boolean {
  return account.status !== 'unopened' && account.transactions[transactionId] !== undefined;
}

/** Reads a transfer (and, when it failed, its payer's account) and works out the next step. */
export async function inspectTransfer(store: EventStore, transferId: string): Promise<TransferView> {
  const stream = await loadTransferStream(store, transferId);
  const { state } = stream;
  const request = state.phase === 'none' ? undefined : state.request;
  const sent = stream.events.find((e) => e.type === 'TransferSent');
  const sentAt = sent ? new Date(String(sent.data.occurredAt)) : undefined;
  let refundDue = false;
  let next: ProcessStep;
  if (state.phase === 'requested') {
    // The API appends TransferRequested, then the payer's debit, then TransferDebited: the domain's
    // nextTransferStep assumes the debit is done, so 'requested' is this process's own step.
    next = 'debit';
  } else if (state.phase === 'failed' && request) {
    const payer = await loadAccount(store, request.payerId);
    refundDue = hasTransaction(payer.state, request.debitTransactionId) && !hasTransaction(payer.state, request.refundTransactionId);
    next = 'refund';
  } else {
    const step = nextTransferStep(state);
    next = step === 'credit_payee' ? 'credit' : step;
  }
  // A failed transfer whose payer was never debited (abandoned, or refused at the debit) has nothing left to do;
  // one whose refund is already on the account only lacks TransferRefunded, which the refund step appends.
  if (next === 'refund' && !refundDue && request) {
    const payer = await loadAccount(store, request.payerId);
    if (!hasTransaction(payer.state, request.debitTransactionId)) next = 'done';
  }
  return { transferId, stream, state, request, sentAt, refundDue, next };
}

// ---------------------------------------------------------------------------------------------------------------
// appending

/** The command id (event ids derive from it) of one part of one step: the API and the worker share it. */
export function transferCommandId(transferId: string, step: string): string {
  return `transfer-process:${transferId}:${step}`;
}

export function transferStepContext(transferId: string, step: string, causationId?: string, actor?: { id: string; role: 'customer' | 'system' }): CommandContext {
  return {
    commandId: transferCommandId(transferId, step),
    metadata: {
      ...(actor?.role === 'customer' ? { actorId: actor.id, actorRole: 'customer' as const } : { actorRole: 'system' as const }),
      correlationId: transferId,
      ...(causationId ? { causationId } : {}),
      schemaVersion: 1,
    },
  };
}


export interface AppendDecidedOptions<S, E extends DomainEventLike> {
  readonly store: EventStore;
  readonly streamId: string;
  readonly evolve: (state: S, event: E) => S;
  readonly initialState: S;
  /** Decides with the stream's current state; may read other streams. [] = nothing to do. */
  readonly decide: (own: StreamState<S>) => Promise<readonly E[]> | readonly E[];
  readonly context: CommandContext;
  readonly now: Date;
  readonly maxAttempts?: number;
}

/**
 * core's handleCommand with an asynchronous decide (a transfer step decides over several streams): load → decide →
 * append with the read revision as expected revision; on a conflict read and decide again, a bounded number of times.
 */
export async function appendDecided<S, E extends DomainEventLike>(options: AppendDecidedOptions<S, E>): Promise<Position | undefined> {
  const maxAttempts = options.maxAttempts ?? 10;
  for (let attempt = 1; ; attempt += 1) {
    const own = await loadStream(options.store, options.streamId, options.evolve, options.initialState);
    const events = await options.decide(own);
    if (events.length === 0) return undefined;
    const toAppend = toNewEvents(options.streamId, events, own, options.context, options.now);
    try {
      const result = await options.store.append(options.streamId, toAppend, own.revision === undefined ? 'no_stream' : own.revision);
      return result.position;
    } catch (error) {
      if (!isWrongExpectedVersion(error) || attempt >= maxAttempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(5 * 2 ** attempt, 250)));
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// the steps

interface StepRun {
  readonly deps: TransferProcessDeps;
  readonly transferId: string;
  readonly request: TransferRequest;
  readonly causationId: string | undefined;
  readonly now: Date;
}

type Part = keyof TransferStepResult;

/** decideTransferStep over the current streams; `own` replaces the stream being appended to. */
async function decideStepNow(run: StepRun, command: TransferStepCommand, part: Part, own: unknown): Promise<TransferStepResult> {
  const { store } = run.deps;
  const { request } = run;
  const transfer = part === 'transfer' ? (own as TransferState) : (await loadTransferStream(store, run.transferId)).state;
  const payerAccount = part === 'payerAccount' ? (own as AccountState) : (await loadAccount(store, request.payerId)).state;
  const toOther = request.payeeId !== undefined && request.payeeId !== request.payerId;
  const payeeAccount = !toOther ? undefined : part === 'payeeAccount' ? (own as AccountState) : (await loadAccount(store, request.payeeId!)).state;
  return decideTransferStep(command, { transfer, payerAccount, payeeAccount });
}

/** Appends one part (one stream) of a step, decided afresh. */
async function appendPart(run: StepRun, command: TransferStepCommand, part: Part, stepName: string): Promise<Position | undefined> {
  const { request, transferId } = run;
  const context = transferStepContext(transferId, `${stepName}:${part}`, run.causationId);
  if (part === 'transfer') {
    return appendDecided<TransferState, TransferEvent>({
      store: run.deps.store,
      streamId: streams.transfer(transferId),
      evolve: evolveTransfer,
      initialState: initialTransferState,
      decide: async (own) => (await decideStepNow(run, command, part, own.state)).transfer,
      context,
      now: run.now,
    });
  }
  const userId = part === 'payerAccount' ? request.payerId : request.payeeId;
  if (userId === undefined) return undefined;
  return appendDecided<AccountState, AccountEvent>({
    store: run.deps.store,
    streamId: streams.account(userId),
    evolve: evolveAccount,
    initialState: initialAccountState,
    decide: async (own) => (await decideStepNow(run, command, part, own.state))[part],
    context,
    now: run.now,
  });
}

async function fault(run: StepRun, point: Parameters<FaultHook>[0]): Promise<void> {
  await (run.deps.fault ?? noFaults)(point);
}

async function stepDebit(run: StepRun): Promise<void> {
  const { store } = run.deps;
  const { request } = run;
  const payer = await loadAccount(store, request.payerId);
  const debit = payer.state.status === 'unopened' ? undefined : payer.state.transactions[request.debitTransactionId];
  if (debit) {
    // The API debited the payer and stopped before TransferDebited: record it; the transfer goes on.
    await appendDecided<TransferState, TransferEvent>({
      store,
      streamId: streams.transfer(run.transferId),
      evolve: evolveTransfer,
      initialState: initialTransferState,
      decide: (own) =>
        own.state.phase !== 'requested'
          ? []
          : [
              {
                type: 'TransferDebited',
                data: {
                  transferId: run.transferId,
                  transactionId: debit.transactionId,
                  account: debit.account,
                  amountCents: debit.amountCents,
                  occurredAt: debit.occurredAt,
                },
              },
            ],
      context: transferStepContext(run.transferId, 'debit:transfer', run.causationId),
      now: run.now,
    });
    return;
  }
  const abandonAt = new Date(new Date(request.requestedAt).getTime() + run.deps.abandonAfterMs);
  if (run.now < abandonAt) throw new StepNotReadyError('The request may still be in progress', abandonAt);
  // No debit, and the API no longer appends one (it stops at half of abandonAfterMs): nothing moved; fail it.
  await appendDecided<TransferState, TransferEvent>({
    store,
    streamId: streams.transfer(run.transferId),
    evolve: evolveTransfer,
    initialState: initialTransferState,
    decide: (own) =>
      own.state.phase !== 'requested'
        ? []
        : [{ type: 'TransferFailed', data: { transferId: run.transferId, reason: ABANDONED_REASON, occurredAt: run.now.toISOString() } }],
    context: transferStepContext(run.transferId, 'abandon:transfer', run.causationId),
    now: run.now,
  });
  run.deps.logger.warn({ transferId: run.transferId }, 'Transfer abandoned: requested but never debited');
}

async function stepCredit(run: StepRun): Promise<void> {
  const command: TransferStepCommand = { type: 'CreditPayee', now: run.now.toISOString() };
  await fault(run, 'before-credit');
  await appendPart(run, command, 'payeeAccount', 'credit');
  await fault(run, 'after-credit');
  await appendPart(run, command, 'payerAccount', 'credit');
  await appendPart(run, command, 'transfer', 'credit');
}

async function stepSend(run: StepRun): Promise<void> {
  await appendPart(run, { type: 'SendTransfer', now: run.now.toISOString() }, 'transfer', 'send');
}

async function stepSettle(run: StepRun): Promise<void> {
  await fault(run, 'before-settle');
  const outcome = await run.deps.settlement.settle(run.request);
  const now = run.now.toISOString();
  if (!outcome.ok) {
    try {
      await appendPart(run, { type: 'FailTransfer', reason: outcome.reason, now }, 'transfer', 'fail');
      run.deps.logger.info({ transferId: run.transferId, reason: outcome.reason }, 'External transfer failed; refunding the payer');
      await fault(run, 'mid-settle');
      return;
    } catch (error) {
      // The payer's debit is already completed (an earlier run settled it half-way): settling is the only way on.
      if (!isDomainError(error) || error.code !== 'transfer_completed') throw error;
    }
  }
  const command: TransferStepCommand = { type: 'SettleTransfer', now };
  await appendPart(run, command, 'payerAccount', 'settle');
  await fault(run, 'mid-settle');
  await appendPart(run, command, 'transfer', 'settle');
}

async function stepRefund(run: StepRun): Promise<void> {
  const command: TransferStepCommand = { type: 'RefundPayer', now: run.now.toISOString() };
  await appendPart(run, command, 'payerAccount', 'refund');
  await fault(run, 'after-refund-credit');
  await appendPart(run, command, 'transfer', 'refund');
}

export interface AdvanceOptions {
  /** Id of the job (or request) running the step, stored as the events' causationId. */
  readonly causationId?: string;
  readonly settlementDelayMs: number;
  /** Run a due settlement (default true); the settlement job is what runs it. */
  readonly settle?: boolean;
}

export interface AdvanceResult {
  /** The steps run, in order. */
  readonly ran: ProcessStep[];
  /** What the transfer needs next ('done' when finished). */
  readonly next: ProcessStep;
  /** For next = 'settle': when the settlement is due. */
  readonly settleAt: Date | undefined;
  readonly view: TransferView;
}

/**
 * Runs every step of the transfer that can run now, in order, until it is done or waits for its settlement
 * (`next: 'settle'` with `settleAt` in the future). Safe to run concurrently and again: see the module comment.
 * Throws StepNotReadyError when a request may still be in progress at the API.
 */
export async function advanceTransfer(deps: TransferProcessDeps, transferId: string, options: AdvanceOptions): Promise<AdvanceResult> {
  const ran: ProcessStep[] = [];
  for (let guard = 0; guard < 10; guard += 1) {
    const view = await inspectTransfer(deps.store, transferId);
    const now = deps.now?.() ?? new Date();
    const settleAt = view.next === 'settle' && view.sentAt ? new Date(view.sentAt.getTime() + options.settlementDelayMs) : undefined;
    if (view.next === 'done' || !view.request) return { ran, next: 'done', settleAt: undefined, view };
    if (view.next === 'settle' && (options.settle === false || (settleAt !== undefined && settleAt > now))) {
      return { ran, next: 'settle', settleAt, view };
    }
    const run: StepRun = { deps, transferId, request: view.request, causationId: options.causationId, now };
    switch (view.next) {
      case 'debit':
        await stepDebit(run);
        break;
      case 'credit':
        await stepCredit(run);
        break;
      case 'send':
        await stepSend(run);
        break;
      case 'settle':
        await stepSettle(run);
        break;
      case 'refund':
        await stepRefund(run);
        break;
    }
    ran.push(view.next);
  }
  throw new Error(`Transfer ${transferId} did not settle into a state after 10 steps`);
}
