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
