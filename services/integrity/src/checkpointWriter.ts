import { CHAIN_KEY_ID } from '@bank/commands';
import { comparePositions, type EventStore, type Position, type RecordedEvent } from '@bank/eventstore';
import { acquireLeaderLock, sleep, type Keyring, type Logger } from '@bank/platform';
import type pg from 'pg';
import { appendCheckpointLine, readLastCheckpointLine, repairTornTail } from './checkpointFiles';
import { parseCheckpointLine, signCheckpoint, type CheckpointHead, type CheckpointRecord } from './checkpointRecord';

/**
 * Writes the signed checkpoints (checkpointRecord.ts) of the event log into the checkpoint files: each run reads the
 * global log after the last record's position, through the event-store port (so it works on both adapters), and
 * appends a record of every stream that moved. A fresh directory starts from the beginning of the log, so the first
 * records vouch for every stream. It continues the chain of the records it finds, after checking the newest one's
 * signature; it refuses to continue a chain whose newest record it cannot trust (edited, or signed with a key that
 * is no longer configured) until an operator moves those files aside.
 */
export interface CheckpointWriterOptions {
  readonly store: EventStore;
  /** CHECKPOINT_KEYS: the current key signs; the others verify the newest record on start. */
  readonly keys: Pick<Keyring, 'current' | 'byId'>;
  readonly dir: string;
  /** A file grows to about this size before the next one starts (default 64 MiB). */
  readonly maxFileBytes?: number;
  /** Events per readAll page (default 1000). */
  readonly pageSize?: number;
  /** Streams per record at most (default 10,000): a long catch-up writes several records. */
  readonly maxHeadsPerRecord?: number;
  readonly now?: () => Date;
  readonly logger?: Logger;
}

export interface CheckpointWriteResult {
  /** Records appended by this run (0: the log had not moved). */
  readonly records: number;
  /** Events read by this run. */
  readonly events: number;
  /** The position the newest record covers. */
  readonly position: Position | undefined;
}

/** The newest record cannot be trusted, so the chain cannot be continued. */
export class CheckpointChainError extends Error {
  override readonly name = 'CheckpointChainError';
}

export const DEFAULT_CHECKPOINT_FILE_BYTES = 64 * 1024 * 1024;
const DEFAULT_PAGE = 1000;
const DEFAULT_MAX_HEADS = 10_000;

interface ChainState {
  seq: number;
  sig: string | null;
  position: Position | undefined;
  events: bigint;
  keyedFrom: Position | null;
}

interface PendingHead {
  firstRevision: bigint;
  prevHash: string | null;
  revision: bigint;
  hash: string | null;
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export interface CheckpointWriter {
  /** Reads the log after the newest record and appends what moved. */
  writeOnce(): Promise<CheckpointWriteResult>;
  /** Forgets the chain's state: the next run reads it from the files again (e.g. after another writer had the lead). */
  reset(): void;
}

export function createCheckpointWriter(options: CheckpointWriterOptions): CheckpointWriter {
  const pageSize = options.pageSize ?? DEFAULT_PAGE;
  const maxHeads = options.maxHeadsPerRecord ?? DEFAULT_MAX_HEADS;
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_CHECKPOINT_FILE_BYTES;
  const now = options.now ?? (() => new Date());
  let state: ChainState | undefined;

  async function load(): Promise<ChainState> {
    const removed = await repairTornTail(options.dir);
    if (removed > 0) options.logger?.warn({ dir: options.dir, bytes: removed }, 'Removed an unfinished checkpoint record (a write cut short by a crash)');
    const last = await readLastCheckpointLine(options.dir);
    if (!last) return { seq: 0, sig: null, position: undefined, events: 0n, keyedFrom: null };
    const parsed = parseCheckpointLine(last.text, options.keys);
    if (!parsed.ok) {
      throw new CheckpointChainError(
        `The newest checkpoint record in ${last.file} cannot be trusted (${parsed.detail}); not continuing its chain. ` +
          'Run npm run audit:verify, then move the checkpoint files aside (keep them: they are evidence) so that a new chain starts.',
      );
    }
    const { checkpoint } = parsed;
    return { seq: checkpoint.seq, sig: checkpoint.sig, position: checkpoint.position, events: checkpoint.events, keyedFrom: checkpoint.keyedFrom };
  }

  async function append(chain: ChainState, pending: Map<string, PendingHead>, position: Position, events: bigint, keyedFrom: Position | null): Promise<void> {
    const heads: CheckpointHead[] = [...pending.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([stream, head]) => ({ stream, ...head }));
    const record: CheckpointRecord = {
      seq: chain.seq + 1,
      prev: chain.sig,
      writtenAt: now().toISOString(),
      position,
      token: options.store.positionToken(position),
      events,
      keyedFrom,
      heads,
    };
    const { line, sig } = signCheckpoint(record, options.keys.current);
    const file = await appendCheckpointLine(options.dir, line, maxFileBytes);
    Object.assign(chain, { seq: record.seq, sig, position, events, keyedFrom });
    pending.clear();
    options.logger?.debug({ file, seq: record.seq, streams: heads.length, position: record.token }, 'Checkpoint written');
  }

  return {
    async writeOnce() {
      state ??= await load();
      const chain = state;
      const pending = new Map<string, PendingHead>();
      let read = 0;
      let records = 0;
      // Where the reading stands: the last event read, the events up to it, the first keyed one.
      let previous = chain.position;
      let counted = chain.events;
      let keyedFrom = chain.keyedFrom;
      try {
        for (;;) {
          const page: RecordedEvent[] = await options.store.readAll({ ...(previous ? { after: previous } : {}), limit: pageSize });
          for (const event of page) {
            read += 1;
            const system = event.streamId.startsWith('$');
            // A full record is closed before another stream joins it, at the event before this one.
            if (!system && !pending.has(event.streamId) && pending.size >= maxHeads && previous) {
              await append(chain, pending, previous, counted, keyedFrom);
              records += 1;
            }
            previous = event.position;
            counted += 1n;
            if (keyedFrom === null && typeof event.metadata[CHAIN_KEY_ID] === 'string') keyedFrom = event.position;
            if (system) continue;
            const hash = textOrNull(event.metadata.hash);
            const head = pending.get(event.streamId);
            if (head) {
              head.revision = event.revision;
              head.hash = hash;
            } else {
              pending.set(event.streamId, { firstRevision: event.revision, prevHash: textOrNull(event.metadata.prevHash), revision: event.revision, hash });
            }
          }
          if (page.length < pageSize) break;
        }
        if (previous && (chain.position === undefined || comparePositions(previous, chain.position) > 0)) {
          await append(chain, pending, previous, counted, keyedFrom);
          records += 1;
        }
      } catch (error) {
        // Start again from the files: what was read but not written is read again.
        state = undefined;
        throw error;
      }
      return { records, events: read, position: chain.position };
    },
    reset() {
      state = undefined;
    },
  };
}

export interface StartCheckpointWriterOptions extends CheckpointWriterOptions {
  /** PostgreSQL: the leader lock (one writer bank-wide). */
  readonly connection: pg.ClientConfig;
  /** Pause between two runs. */
  readonly everyMs: number;
}

export interface CheckpointWriterHandle {
  /** Runs once now (when this process holds the lead); undefined when it does not. */
  writeNow(): Promise<CheckpointWriteResult | undefined>;
  /** Stops the loop after a last run (so the newest events are covered), and releases the lead. */
  stop(): Promise<void>;
}

/**
 * The checkpoint writer as the worker role runs it: one active writer bank-wide (a PostgreSQL advisory lock; other
 * workers wait as standbys), a run every `everyMs`, and a last run on stop. A failing run is logged at error level
 * and tried again at the next interval.
 */
export function startCheckpointWriter(options: StartCheckpointWriterOptions): CheckpointWriterHandle {
  const writer = createCheckpointWriter(options);
  const stopping = new AbortController();
  const logger = options.logger;
  let leading = false;
  let running: Promise<CheckpointWriteResult> | undefined;

  const runOnce = (): Promise<CheckpointWriteResult> => {
    running ??= writer.writeOnce().finally(() => {
      running = undefined;
    });
    return running;
  };

  const loop = (async () => {
    while (!stopping.signal.aborted) {
      const session = await acquireLeaderLock({
        connection: options.connection,
        lockClass: 'bank.checkpoint',
        name: 'eventlog',
        retryMs: Math.min(options.everyMs, 5_000),
        signal: stopping.signal,
        onStandby: () => logger?.info('Checkpoint writer waiting as a standby'),
      });
      if (!session) break;
      leading = true;
      writer.reset();
      logger?.info({ dir: options.dir, everyMs: options.everyMs }, 'Checkpoint writer is the leader');
      try {
        const pause = AbortSignal.any([stopping.signal, session.lost]);
        while (!pause.aborted) {
          await runOnce().catch((error: unknown) => logger?.error({ err: error, dir: options.dir }, 'Could not write the event log checkpoint'));
          await sleep(options.everyMs, pause);
        }
        if (!session.lost.aborted) {
          await runOnce().catch((error: unknown) => logger?.error({ err: error, dir: options.dir }, 'Could not write the last event log checkpoint'));
        }
      } finally {
        leading = false;
        await session.release();
      }
    }
  })();

  return {
    async writeNow() {
      return leading ? runOnce() : undefined;
    },
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}
