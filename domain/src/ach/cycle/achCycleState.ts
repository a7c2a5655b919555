import { OverlayMap, OverlaySet, type EditableMap, type GrowingSet } from '../../overlay';
import type { EventData } from '../../events/eventSchemas';
import type { AchFileEntry } from '../../events/achEvents';

/**
 * The write side's state of the `achFiles` stream, folded in place (decider.ts) with an O(1) fork:
 *   waiting      entries not yet in a file, in the order they came (external transfers, returns the bank owes)
 *   filed        every transfer (or owed return) id ever put in a file: a transfer joins one file only
 *   traces       every trace number the bank wrote → its entry, file and whether it settled or came back
 *   files        each file's effective date and status
 *   incoming     trace numbers of incoming entries already credited or returned
 */
export type WaitingEntry = Omit<EventData<'AchEntryQueued'>, 'queuedAt'>;

export interface TracedEntry {
  readonly entry: AchFileEntry;
  readonly fileId: string;
}

export interface AchFileStatus {
  readonly effectiveDate: string;
  readonly transmitted: boolean;
  readonly settled: boolean;
  readonly traceNumbers: readonly string[];
  /** The file's name in the outbox and its text, kept until it is transmitted. */
  readonly name: string;
  readonly text?: string;
}

export interface AchCycleState {
  nextTraceSequence: number;
  fileCount: number;
  readonly waiting: EditableMap<string, WaitingEntry>;
  readonly filed: GrowingSet<string>;
  readonly traces: EditableMap<string, TracedEntry>;
  readonly files: EditableMap<string, AchFileStatus>;
  readonly returned: GrowingSet<string>;
  readonly incoming: GrowingSet<string>;
}

export function newAchCycleState(): AchCycleState {
  return { nextTraceSequence: 1, fileCount: 0, waiting: new Map(), filed: new Set(), traces: new Map(), files: new Map(), returned: new Set(), incoming: new Set() };
}

export const initialAchCycleState: AchCycleState = Object.freeze(newAchCycleState());

export function forkAchCycleState(state: AchCycleState): AchCycleState {
  return {
    nextTraceSequence: state.nextTraceSequence,
    fileCount: state.fileCount,
    waiting: new OverlayMap(state.waiting),
    filed: new OverlaySet(state.filed),
    traces: new OverlayMap(state.traces),
    files: new OverlayMap(state.files),
    returned: new OverlaySet(state.returned),
    incoming: new OverlaySet(state.incoming),
  };
}

/** The JSON form of the stream's state for snapshots (maps and sets as arrays of their entries, in their order). */
interface EncodedAchCycle {
  readonly nextTraceSequence: number;
  readonly fileCount: number;
  readonly waiting: Array<[string, WaitingEntry]>;
  readonly filed: string[];
  readonly traces: Array<[string, TracedEntry]>;
  readonly files: Array<[string, AchFileStatus]>;
  readonly returned: string[];
  readonly incoming: string[];
}

/**
 * Snapshots of the `achFiles` stream: a cold command handler reads the newest snapshot and the events after it
 * instead of every file the bank ever built (each event holds its file's text).
 */
export const achCycleSnapshot = {
  encode(state: AchCycleState): EncodedAchCycle {
    return {
      nextTraceSequence: state.nextTraceSequence,
      fileCount: state.fileCount,
      waiting: [...state.waiting],
      filed: [...state.filed],
      traces: [...state.traces],
      files: [...state.files],
      returned: [...state.returned],
      incoming: [...state.incoming],
    };
  },
  decode(json: unknown): AchCycleState {
    const encoded = json as Partial<EncodedAchCycle>;
    const { nextTraceSequence, fileCount, waiting, filed, traces, files, returned, incoming } = encoded;
    if (typeof nextTraceSequence !== 'number' || typeof fileCount !== 'number' || !waiting || !filed || !traces || !files || !returned || !incoming) {
      throw new TypeError('Not an encoded ACH file stream state');
    }
    return {
      nextTraceSequence,
      fileCount,
      waiting: new Map(waiting),
      filed: new Set(filed),
      traces: new Map(traces),
      files: new Map(files),
      returned: new Set(returned),
      incoming: new Set(incoming),
    };
  },
};
