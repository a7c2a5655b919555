import type { Decider } from '../../decider';
import { assertNever } from '../../decider';
import { refuse } from '../../domainError';
import type { BankEvent, EventOf, EventTypeOfStream } from '../../events/eventSchemas';
import type { AchFileEntry } from '../../events/achEvents';
import { nextBankingDay } from '../bankingDays';
import { isCreditCode } from '../nacha/nachaTypes';
import { buildOutboundFile, MAX_TRACE_SEQUENCE, type OutboundEntry, type OutboundFileOptions } from '../nacha/outboundFile';
import type { ReturnReasonCode } from '../nacha/returnReasons';
import { achEntryProblem } from '../achEntryFields';
import { achCycleSnapshot, forkAchCycleState, initialAchCycleState, newAchCycleState, type AchCycleState, type WaitingEntry } from './achCycleState';

/**
 * The ACH file cycle, single stream `achFiles` (docs/ach.md). Every entry joins a file here, on one stream, so the
 * stream's expected revision decides between two builders: the second one's append conflicts, it decides again on
 * the state that holds the first file, and finds those entries gone from `waiting`. A builder that dies before
 * its append recorded nothing: the entries still wait. Trace numbers come from the state's sequence, so they never
 * repeat across files.
 */

export type AchCycleEventType = EventTypeOfStream<'achFiles'>;
export type AchCycleEvent = Extract<BankEvent, { type: AchCycleEventType }>;

/** The bank's settings a file needs (from configuration). */
export type AchFileSettings = Omit<OutboundFileOptions, 'createdAt' | 'fileIdModifier' | 'firstTraceSequence'>;

export type AchCycleCommand =
  | { readonly type: 'QueueAchEntry'; readonly entry: WaitingEntry; readonly now: string }
  | {
      readonly type: 'BuildAchFile';
      readonly fileId: string;
      readonly businessDate: string;
      readonly settings: AchFileSettings;
      /** SHA-256 hex digest of a text (the domain does no I/O nor crypto of its own). */
      readonly sha256: (text: string) => string;
      readonly now: string;
    }
  | { readonly type: 'RecordAchTransmission'; readonly fileId: string; readonly location: string; readonly now: string }
  | { readonly type: 'SettleAchFile'; readonly fileId: string; readonly businessDate: string; readonly now: string }
  | {
      readonly type: 'RecordAchReturn';
      readonly originalTraceNumber: string;
      readonly reasonCode: ReturnReasonCode;
      readonly afterSettlement: boolean;
      readonly businessDate: string;
      readonly now: string;
    }
  | {
      readonly type: 'RecordAchIncomingCredit';
      readonly traceNumber: string;
      readonly customerId: string;
      readonly account: 'savings' | 'checking';
      readonly amountCents: number;
      readonly transactionId: string;
      readonly businessDate: string;
      readonly now: string;
    }
  | {
      readonly type: 'RecordAchIncomingReturn';
      readonly returnId: string;
      readonly traceNumber: string;
      readonly reasonCode: ReturnReasonCode;
      /** The incoming entry: its amount, its ODFI's routing number (to return it to), account, name, code 22/32. */
      readonly amountCents: number;
      readonly routingNumber: string;
      readonly accountNumber: string;
      readonly name: string;
      readonly transactionCode: 22 | 32;
      readonly businessDate: string;
      readonly now: string;
    };

/** The file's name in the outbox: ACH-<created, UTC YYYYMMDDHHMM>-<file id>.txt. */
export function achFileNameOf(createdAt: string, fileId: string): string {
  const stamp = createdAt.slice(0, 16).replace(/[-T:]/g, '');
  return `ACH-${stamp}-${fileId}.txt`;
}

function mutable(state: AchCycleState): AchCycleState {
  return state === initialAchCycleState ? newAchCycleState() : state;
}

export function evolveAchCycle(current: AchCycleState, event: AchCycleEvent): AchCycleState {
  const state = mutable(current);
  switch (event.type) {
    case 'AchEntryQueued': {
      const { queuedAt: _queuedAt, ...entry } = event.data;
      if (!state.filed.has(entry.transferId)) state.waiting.set(entry.transferId, entry);
      return state;
    }
    case 'AchIncomingReturned': {
      const { receivedAt: _receivedAt, businessDate: _businessDate, ...entry } = event.data;
      state.incoming.add(event.data.returnOf.originalTraceNumber);
      state.waiting.set(entry.transferId, entry);
      return state;
    }
    case 'AchFileBuilt': {
      const { fileId, entries, effectiveDate, nextTraceSequence } = event.data;
      for (const entry of entries) {
        state.waiting.delete(entry.transferId);
        state.filed.add(entry.transferId);
        state.traces.set(entry.traceNumber, { entry, fileId });
      }
      state.files.set(fileId, {
        effectiveDate,
        transmitted: false,
        settled: false,
        traceNumbers: entries.map((entry) => entry.traceNumber),
        name: achFileNameOf(event.data.createdAt, fileId),
        text: event.data.text,
      });
      state.nextTraceSequence = nextTraceSequence;
      state.fileCount += 1;
      return state;
    }
    case 'AchFileTransmitted': {
      const file = state.files.get(event.data.fileId);
      if (file) {
        const { text: _text, ...rest } = file;
        state.files.set(event.data.fileId, { ...rest, transmitted: true });
      }
      return state;
    }
    case 'AchFileSettled': {
      const file = state.files.get(event.data.fileId);
      if (file) state.files.set(event.data.fileId, { ...file, settled: true });
      return state;
    }
    case 'AchReturnApplied':
      state.returned.add(event.data.originalTraceNumber);
      return state;
    case 'AchIncomingCredited':
      state.incoming.add(event.data.traceNumber);
      return state;
    default:
      return assertNever(event);
  }
}

function ev<K extends AchCycleEventType>(type: K, data: EventOf<K>['data']): AchCycleEvent {
  return { type, data } as AchCycleEvent;
}

/** A–Z then 0–9: tells apart the files of one day (36 before it repeats). */
function fileIdModifierOf(fileCount: number): string {
  return 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.charAt(fileCount % 36);
}

function outboundEntryOf(entry: WaitingEntry, effectiveDate: string, settings: AchFileSettings): OutboundEntry {
  return {
    transactionCode: entry.transactionCode,
    rdfiRoutingNumber: entry.routingNumber,
    accountNumber: entry.accountNumber,
    amountCents: entry.amountCents,
    name: entry.name,
    individualIdentification: entry.transferId.replace(/-/g, '').slice(0, 15).toUpperCase(),
    effectiveDate,
    ...(entry.returnOf
      ? { returnOf: { reasonCode: entry.returnOf.reasonCode as ReturnReasonCode, originalTraceNumber: entry.returnOf.originalTraceNumber, originalReceivingDfi: settings.bankRoutingNumber.slice(0, 8) } }
      : {}),
  };
}

/** Waiting entries that no file can hold (queued before the queue checked them), with why: a build leaves them waiting. */
export function unfileableEntries(state: AchCycleState): { readonly transferId: string; readonly problem: string }[] {
  const left: { transferId: string; problem: string }[] = [];
  for (const [transferId, entry] of state.waiting) {
    const problem = achEntryProblem(entry);
    if (problem) left.push({ transferId, problem });
  }
  return left;
}

function buildFile(command: Extract<AchCycleCommand, { type: 'BuildAchFile' }>, state: AchCycleState): AchCycleEvent[] {
  // Entries queued before the queue checked them that no file can hold stay waiting, so that they cannot stop every
  // other entry: `unfileableEntries` lists them, and the builder logs them for the operator.
  const waiting = [...state.waiting].map(([, entry]) => entry).filter((entry) => achEntryProblem(entry) === undefined);
  if (waiting.length === 0) return [];
  if (state.files.has(command.fileId)) return [];
  if (state.nextTraceSequence + waiting.length - 1 > MAX_TRACE_SEQUENCE) throw new RangeError('The trace sequence is exhausted');
  const effectiveDate = nextBankingDay(command.businessDate);
  // One batch per effective date: the file's entries are in the order of their trace numbers.
  const file = buildOutboundFile(
    waiting.map((entry) => outboundEntryOf(entry, effectiveDate, command.settings)),
    { ...command.settings, createdAt: command.now, fileIdModifier: fileIdModifierOf(state.fileCount), firstTraceSequence: state.nextTraceSequence },
  );
  let totalDebitCents = 0;
  let totalCreditCents = 0;
  const entries: AchFileEntry[] = waiting.map((entry, index) => {
    if (isCreditCode(entry.transactionCode)) totalCreditCents += entry.amountCents;
    else totalDebitCents += entry.amountCents;
    return { ...entry, traceNumber: file.traceNumbers[index] as string };
  });
  return [
    ev('AchFileBuilt', {
      fileId: command.fileId,
      createdAt: command.now,
      businessDate: command.businessDate,
      effectiveDate,
      text: file.text,
      sha256: command.sha256(file.text),
      entries,
      totalDebitCents,
      totalCreditCents,
      nextTraceSequence: state.nextTraceSequence + waiting.length,
    }),
  ];
}

/** Decides one command; [] when already done (an entry queued or filed, a file transmitted or settled, a trace applied). */
export function decideAchCycle(command: AchCycleCommand, state: AchCycleState): AchCycleEvent[] {
  switch (command.type) {
    case 'QueueAchEntry': {
      const { transferId } = command.entry;
      if (state.waiting.has(transferId) || state.filed.has(transferId)) return [];
      // An entry no file could hold is refused here, not at the build, where it would stop every other entry.
      const problem = achEntryProblem(command.entry);
      if (problem) refuse(problem);
      return [ev('AchEntryQueued', { ...command.entry, queuedAt: command.now })];
    }
    case 'BuildAchFile':
      return buildFile(command, state);
    case 'RecordAchTransmission': {
      const file = state.files.get(command.fileId);
      if (!file) refuse('not_found', 'ACH file not found');
      if (file.transmitted) return [];
      return [ev('AchFileTransmitted', { fileId: command.fileId, location: command.location, transmittedAt: command.now })];
    }
    case 'SettleAchFile': {
      const file = state.files.get(command.fileId);
      if (!file) refuse('not_found', 'ACH file not found');
      if (file.settled) return [];
      if (file.effectiveDate > command.businessDate) refuse('invalid_transfer_step', 'The file is not yet effective');
      const returns = file.traceNumbers
        .map((trace) => state.traces.get(trace)?.entry)
        .filter((entry): entry is AchFileEntry => entry?.returnOf !== undefined)
        .map((entry) => ({ transferId: entry.transferId, amountCents: entry.amountCents }));
      return [ev('AchFileSettled', { fileId: command.fileId, businessDate: command.businessDate, settledAt: command.now, returns })];
    }
    case 'RecordAchReturn': {
      if (state.returned.has(command.originalTraceNumber)) return [];
      const traced = state.traces.get(command.originalTraceNumber);
      if (!traced || traced.entry.returnOf) refuse('not_found', 'No entry of the bank has this trace number');
      return [
        ev('AchReturnApplied', {
          originalTraceNumber: command.originalTraceNumber,
          transferId: traced.entry.transferId,
          fileId: traced.fileId,
          reasonCode: command.reasonCode,
          amountCents: traced.entry.amountCents,
          afterSettlement: command.afterSettlement,
          appliedAt: command.now,
          businessDate: command.businessDate,
        }),
      ];
    }
    case 'RecordAchIncomingCredit': {
      if (state.incoming.has(command.traceNumber)) return [];
      const { type: _type, now, ...data } = command;
      return [ev('AchIncomingCredited', { ...data, creditedAt: now })];
    }
    case 'RecordAchIncomingReturn': {
      if (state.incoming.has(command.traceNumber)) return [];
      return [
        ev('AchIncomingReturned', {
          transferId: command.returnId,
          amountCents: command.amountCents,
          routingNumber: command.routingNumber,
          accountNumber: command.accountNumber,
          name: command.name,
          transactionCode: command.transactionCode === 22 ? 21 : 31,
          returnOf: { reasonCode: command.reasonCode, originalTraceNumber: command.traceNumber },
          receivedAt: command.now,
          businessDate: command.businessDate,
        }),
      ];
    }
    default:
      return assertNever(command);
  }
}

/** Whether an incoming entry's trace number was already credited or returned. */
export function isIncomingApplied(state: AchCycleState, traceNumber: string): boolean {
  return state.incoming.has(traceNumber);
}

export const achCycleDecider: Decider<AchCycleCommand, AchCycleEvent, AchCycleState> = {
  name: 'achFiles',
  stateVersion: 1,
  snapshot: achCycleSnapshot,
  initialState: initialAchCycleState,
  evolve: evolveAchCycle,
  decide: decideAchCycle,
  fork: forkAchCycleState,
};
