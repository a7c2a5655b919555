import type { CommandContext, CommandHandler } from '@bank/commands';
import {
  accountDecider,
  achCycleDecider,
  decideTransferRecord,
  isDomainError,
  isOutcomeAlreadyCommitted,
  isPayeeGone,
  nextTransferStep,
  PAYEE_ACCOUNT_CLOSED_REASON,
  streams,
  transferDecider,
  transferStepActions,
  type TransferAction,
  type TransferRequest,
  type TransferState,
  type TransferStep,
} from '@bank/domain';
import type { Position } from '@bank/eventstore';
import { noFaults, type FaultHook, type FaultPoint } from './faults';
import type { TransferSignals } from './transferSignals';

/**
 * Runs a transfer's steps — the domain's process model (domain/src/transfer/transferProcess.ts), with no step of its
 * own — through the command handler: each action is one command on one stream. Event ids derive from the transfer,
 * the step and the action, and every decider is idempotent, so a step run again after a crash appends only what is
 * missing. Used by the transfer process (after each debit in the log) and by the sweeper.
 */
export interface TransferStepDeps {
  readonly commands: CommandHandler;
  /** Where outcomes of internal transfers are published for the waiting request. */
  readonly signals?: TransferSignals;
  readonly fault?: FaultHook;
  readonly now?: () => Date;
  /** The business date each step's money commands belong to (the calendar's open date); default the UTC date of `now`. */
  readonly businessDate?: BusinessDateSource;
}

/** Where a service reads the business date of its money commands: @bank/books' BusinessCalendar.current. */
export type BusinessDateSource = () => Promise<string>;

/** How the settlement network answered (for the 'settle' step). */
export type SettlementAnswer = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export interface AdvanceOptions {
  readonly from: TransferStep;
  /** The failure reason, when starting from 'fail'. */
  readonly reason?: string;
  /** The settlement's answer: without it the run stops before 'settle' (an external transfer settles at the COB, docs/ach.md). */
  readonly settlement?: SettlementAnswer;
  /** Id of what drove this run (the debit event, the sweeper), stored as causationId. */
  readonly causationId?: string;
}

export interface AdvanceResult {
  /** 'done', or 'settle' when the transfer waits for its settlement. */
  readonly next: TransferStep;
  readonly state: TransferState | undefined;
  readonly ran: TransferStep[];
}

interface StepOutcome {
  readonly next: TransferStep;
  readonly reason?: string;
  readonly state?: TransferState;
}

/** Refusals of a transfer-record command that mean "the record has moved on": carry on from where it is. */
const RECORD_MOVED = new Set(['transfer_failed', 'transfer_completed', 'invalid_transfer_step']);

/** Refusals of QueueAchEntry for an entry that no file can hold (`achEntryProblem`). */
const UNFILEABLE = new Set(['invalid_routing_number', 'invalid_external_account']);

export function transferStepContext(transferId: string, step: TransferStep, index: number, causationId?: string): CommandContext {
  return {
    commandId: `transfer-process:${transferId}:${step}:${index}`,
    metadata: { actorRole: 'system', correlationId: transferId, ...(causationId ? { causationId } : {}) },
  };
}

async function fault(deps: TransferStepDeps, point: FaultPoint, transferId: string): Promise<void> {
  await (deps.fault ?? noFaults)(point, transferId);
}

export async function readTransfer(commands: CommandHandler, transferId: string): Promise<TransferState> {
  return commands.read(transferDecider, streams.transfer(transferId), (state) => state, { fresh: true });
}

async function runAction(deps: TransferStepDeps, request: TransferRequest, step: TransferStep, index: number, action: TransferAction, causationId?: string) {
  const context = transferStepContext(request.transferId, step, index, causationId);
  if (action.stream === 'transfer') {
    return deps.commands.execute({
      decider: transferDecider,
      streamId: streams.transfer(request.transferId),
      decide: (state) => decideTransferRecord(action.commands, state),
      context,
      commandType: action.commands.map((c) => c.type).join('+'),
      // A transfer's record begins with its first step: not read before it (a re-run after a crash conflicts and reads).
      expectNew: action.commands[0]?.type === 'StartTransfer',
    });
  }
  if (action.stream === 'ach') {
    return deps.commands.execute({
      decider: achCycleDecider,
      streamId: streams.achFiles(),
      decide: (state) => achCycleDecider.decide(action.command, state),
      context,
      commandType: action.command.type,
    });
  }
  const userId = action.stream === 'payer' ? request.payerId : request.payeeId;
  if (userId === undefined) throw new TypeError(`Transfer ${request.transferId} has no payee`);
  return deps.commands.execute({
    decider: accountDecider,
    streamId: streams.account(userId),
    decide: (state) => accountDecider.decide(action.command, state),
    context,
    commandType: action.command.type,
  });
}

function publish(deps: TransferStepDeps, request: TransferRequest, status: 'completed' | 'failed', position: Position | undefined): void {
  if (request.internal && position) deps.signals?.publish({ transferId: request.transferId, status, position });
}

async function runStep(deps: TransferStepDeps, request: TransferRequest, step: Exclude<TransferStep, 'done'>, reason: string | undefined, causationId?: string): Promise<StepOutcome> {
  const now = (deps.now?.() ?? new Date()).toISOString();
  const businessDate = await deps.businessDate?.();
  const actions = transferStepActions(step, request, now, { reason, businessDate });
  let state: TransferState | undefined;
  let payerPosition: Position | undefined;
  for (const [index, action] of actions.entries()) {
    // An external transfer whose record is past 'debited' (in a file, settled, returned) is not queued again.
    if (action.stream === 'ach' && state !== undefined && state.phase !== 'debited' && state.phase !== 'requested') break;
    if (action.stream === 'ach') await fault(deps, 'after-send', request.transferId);
    if (action.stream === 'payee') await fault(deps, 'before-credit', request.transferId);
    try {
      const result = await runAction(deps, request, step, index, action, causationId);
      if (action.stream === 'transfer') {
        // A duplicate append (the record's first events already stored, e.g. by a generated bank or an earlier run)
        // answers the state those events left, not the record as it stands: read it before deciding what follows.
        state = result.duplicate ? await readTransfer(deps.commands, request.transferId) : (result.state as TransferState);
      }
      if (action.stream === 'payer') payerPosition = result.position ?? payerPosition;
    } catch (error) {
      if (action.stream === 'payee' && isPayeeGone(error)) return { next: 'fail', reason: PAYEE_ACCOUNT_CLOSED_REASON };
      // An entry no NACHA file can hold (a request decided before the request checked it): the transfer fails and
      // is refunded rather than wait for ever.
      if (action.stream === 'ach' && isDomainError(error) && UNFILEABLE.has(error.code)) return { next: 'fail', reason: error.message };
      if (action.stream === 'payer' && isOutcomeAlreadyCommitted(error)) {
        // The payer's debit already went the other way: follow the outcome committed first.
        if (step === 'settle') return { next: 'fail', reason: reason ?? 'Transfer failed' };
        if (step === 'fail') return { next: 'settle' };
      }
      if (action.stream === 'transfer' && isDomainError(error) && RECORD_MOVED.has(error.code)) {
        const current = await readTransfer(deps.commands, request.transferId);
        return { next: nextTransferStep(current, request), state: current };
      }
      throw error;
    }
    if (action.stream === 'payee') await fault(deps, 'after-credit', request.transferId);
    if (action.stream === 'payer' && step === 'credit') {
      publish(deps, request, 'completed', payerPosition);
      await fault(deps, 'after-complete', request.transferId);
    }
    if (action.stream === 'payer' && step === 'refund' && action.command.type === 'RefundTransfer') {
      publish(deps, request, 'failed', payerPosition);
      await fault(deps, 'after-refund-credit', request.transferId);
    }
  }
  if (step === 'send') {
    // Queued: the transfer waits for its ACH file, then the COB of the file's effective date (docs/ach.md).
    const current = state ?? (await readTransfer(deps.commands, request.transferId));
    const next = nextTransferStep(current, request);
    return { next: next === 'send' ? 'settle' : next, state: current };
  }
  const current = state ?? (await readTransfer(deps.commands, request.transferId));
  return { next: nextTransferStep(current, request), state: current };
}

/**
 * Runs the transfer forward from `options.from` until it is done, or waits for its settlement (`next: 'settle'`
 * when no `settlement` answer was given).
 */
export async function advanceTransfer(deps: TransferStepDeps, request: TransferRequest, options: AdvanceOptions): Promise<AdvanceResult> {
  let step = options.from;
  let reason = options.reason;
  let settlement = options.settlement;
  let state: TransferState | undefined;
  const ran: TransferStep[] = [];
  for (let guard = 0; guard < 12; guard += 1) {
    if (step === 'done') return { next: 'done', state, ran };
    if (step === 'settle') {
      if (!settlement) return { next: 'settle', state, ran };
      if (!settlement.ok) {
        step = 'fail';
        reason = settlement.reason;
      }
    }
    const current = step as Exclude<TransferStep, 'done'>;
    const outcome = await runStep(deps, request, current, reason, options.causationId);
    ran.push(current);
    // An outcome refused because the payer's debit went the other way first: that outcome stands.
    if (current === 'fail' && outcome.next === 'settle') settlement = { ok: true };
    if (current === 'settle' && outcome.next === 'fail') settlement = { ok: false, reason: outcome.reason ?? 'Transfer failed' };
    state = outcome.state ?? state;
    reason = outcome.reason;
    step = outcome.next;
  }
  throw new Error(`Transfer ${request.transferId} did not reach an end after 12 steps`);
}
