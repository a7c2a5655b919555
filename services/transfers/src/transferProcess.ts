import { readDomainEvent, type CommandHandler } from '@bank/commands';
import { parseStreamName, transferRequestOf, type TransferRequest } from '@bank/domain';
import { comparePositions, formatPosition, type EventStore, type Position, type RecordedEvent, type Subscription } from '@bank/eventstore';
import { acquireLeaderLock, sleep, type Logger } from '@bank/platform';
import type pg from 'pg';
import { noFaults, type FaultHook } from './faults';
import { ensureProcessSchema, readProcessCheckpoint, saveProcessCheckpoint } from './processCheckpoint';
import { advanceTransfer, readTransfer, type BusinessDateSource } from './transferSteps';
import type { TransferSignals } from './transferSignals';

/**
 * The transfer process: a subscriber to the global log, from its checkpoint, like the projector. Each transfer's
 * request is one event — the payer's pending debit carrying the transfer's intent — and for each the process runs the
 * domain's steps (credit the payee, or queue for the next ACH file; fail and refund) through the command handler.
 * External transfers then wait for their file and the COB of its effective date (docs/ach.md).
 *
 * Many transfers are worked on at once (`concurrency`): the log is read in order, each debit starts its transfer,
 * and the checkpoint advances to just before the oldest transfer not yet finished. After a crash the process starts
 * again from the checkpoint and runs those transfers again: every step appends only what is missing. One instance
 * is active (a PostgreSQL advisory lock); others wait as standbys.
 *
 * It subscribes to the debits alone (TRANSFER_EVENT_TYPES, filtered by the event store where it reads: the rest of
 * the log is neither fetched nor decoded), and the store's progress reports move the checkpoint past the runs of
 * other events between them, so a fresh process catches up over a long log at the speed of the store's scan.
 */
export interface TransferProcessOptions {
  readonly store: EventStore;
  readonly commands: CommandHandler;
  /** PostgreSQL: the process's checkpoint and leader lock. */
  readonly pool: pg.Pool;
  readonly signals?: TransferSignals;
  readonly logger?: Logger;
  /** Checkpoint and lock name. Default 'transfers'. */
  readonly name?: string;
  /** Transfers worked on at once. Default 512. */
  readonly concurrency?: number;
  readonly leaderRetryMs?: number;
  /** How often the checkpoint is written when it moved. Default 100 ms. */
  readonly checkpointEveryMs?: number;
  readonly fault?: FaultHook;
  readonly now?: () => Date;
  /** The business date of the steps' money commands (the calendar's). */
  readonly businessDate?: BusinessDateSource;
}

export interface TransferProcessHandle {
  /** Resolves when this instance leads and follows the log. */
  readonly ready: Promise<void>;
  /** Resolves when, as the leader, it has finished every transfer the log held when it caught up. */
  readonly caughtUp: Promise<void>;
  status(): { readonly state: 'starting' | 'standby' | 'leader' | 'stopped'; readonly inFlight: number; readonly checkpoint: string | undefined };
  /** Stops reading the log, lets the transfers in flight finish, writes the checkpoint, releases the lock. */
  stop(): Promise<void>;
}

/** The only events the process reads: every transfer starts with its payer's debit. */
export const TRANSFER_EVENT_TYPES: readonly string[] = ['AccountDebited'];

/** The debit that requests a transfer (or, for records begun before, a debit that belongs to one). */
function transferDebit(event: RecordedEvent): { payerId: string; transferId: string; request: TransferRequest | undefined } | undefined {
  if (event.type !== 'AccountDebited' || event.data.status !== 'pending' || typeof event.data.transferId !== 'string') return undefined;
  const stream = parseStreamName(event.streamId);
  if (stream?.category !== 'account') return undefined;
  const parsed = readDomainEvent(event);
  if (parsed.type !== 'AccountDebited' || !parsed.data.transferId) return undefined;
  return { payerId: stream.id, transferId: parsed.data.transferId, request: transferRequestOf(stream.id, parsed.data) };
}

interface InFlight {
  done: boolean;
  /** The last position seen before this transfer's debit: the checkpoint while it is unfinished. */
  readonly before: Position | undefined;
}

class Deferred {
  resolve!: () => void;
  reject!: (error: unknown) => void;
  readonly promise = new Promise<void>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });
  constructor() {
    this.promise.catch(() => undefined);
  }
}

export function startTransferProcess(options: TransferProcessOptions): TransferProcessHandle {
  const name = options.name ?? 'transfers';
  const concurrency = options.concurrency ?? 512;
  const logger = options.logger;
  const stopping = new AbortController();
  const ready = new Deferred();
  const caughtUp = new Deferred();
  let state: 'starting' | 'standby' | 'leader' | 'stopped' = 'starting';
  const window: InFlight[] = [];
  let windowStart = 0;
  let lastSeen: Position | undefined;
  let saved: string | undefined;
  let running = 0;
  let slotFreed: (() => void) | undefined;

  const stepDeps = {
    commands: options.commands,
    ...(options.signals ? { signals: options.signals } : {}),
    fault: options.fault ?? noFaults,
    ...(options.now ? { now: options.now } : {}),
    ...(options.businessDate ? { businessDate: options.businessDate } : {}),
  };

  /** Where the checkpoint may be: everything up to it is finished (an unfinished entry holds it back for good). */
  function safePosition(): Position | undefined {
    while (windowStart < window.length && window[windowStart]!.done) windowStart += 1;
    if (windowStart > 1024) {
      window.splice(0, windowStart);
      windowStart = 0;
    }
    return windowStart < window.length ? window[windowStart]!.before : lastSeen;
  }

  async function legacyRequest(transferId: string): Promise<TransferRequest | undefined> {
    const record = await readTransfer(options.commands, transferId);
    return record.phase === 'none' ? undefined : record.request;
  }

  /**
   * Runs one transfer forward; retries failures with backoff until it succeeds (true) or the process stops (false:
   * the transfer is not finished, so the checkpoint stays before it). Never skips.
   */
  async function runTransfer(event: RecordedEvent, debit: NonNullable<ReturnType<typeof transferDebit>>, lost: AbortSignal): Promise<boolean> {
    for (let failures = 0; !stopping.signal.aborted && !lost.aborted; failures += 1) {
      try {
        const request = debit.request ?? (await legacyRequest(debit.transferId));
        if (!request) {
          logger?.warn({ transferId: debit.transferId, event: event.id }, 'A transfer debit without a request: nothing to run');
          return true;
        }
        await advanceTransfer(stepDeps, request, { from: request.internal ? 'credit' : 'send', causationId: event.id });
        return true;
      } catch (error) {
        logger?.[failures >= 3 ? 'error' : 'warn']({ err: error, transferId: debit.transferId, failures: failures + 1 }, 'Transfer step failed; retrying');
        await sleep(Math.min(30_000, 50 * 2 ** failures), stopping.signal);
      }
    }
    return false;
  }

  async function follow(lost: AbortSignal): Promise<void> {
    const after = await readProcessCheckpoint(options.pool, name);
    saved = after ? formatPosition(after) : undefined;
    lastSeen = after;
    window.length = 0;
    windowStart = 0;
    let caughtUpWhenIdle = false;
    const tasks = new Set<Promise<void>>();
    let failure: unknown;
    const finished = new Deferred();
    const subscription: Subscription = options.store.subscribe(
      async (event) => {
        const debit = transferDebit(event);
        if (!debit) {
          lastSeen = event.position;
          return;
        }
        while (running >= concurrency && !stopping.signal.aborted && !lost.aborted) {
          await new Promise<void>((resolve) => {
            slotFreed = resolve;
          });
        }
        // Stopping: this debit is not taken (the checkpoint stays before it).
        if (stopping.signal.aborted || lost.aborted) throw new Error('The transfer process is stopping');
        const entry: InFlight = { done: false, before: lastSeen };
        window.push(entry);
        lastSeen = event.position;
        running += 1;
        const task = runTransfer(event, debit, lost).then((completed) => {
          entry.done = completed;
        }).finally(() => {
          running -= 1;
          tasks.delete(task);
          slotFreed?.();
          slotFreed = undefined;
          if (caughtUpWhenIdle && running === 0) caughtUp.resolve();
        });
        tasks.add(task);
      },
      {
        ...(after ? { after } : {}),
        eventTypes: TRANSFER_EVENT_TYPES,
        // Every event up to `position` was looked at, the debits among them taken: the other events need nothing.
        onProgress: (position) => {
          if (!lastSeen || comparePositions(position, lastSeen) > 0) lastSeen = position;
        },
        onCaughtUp: () => {
          caughtUpWhenIdle = true;
          if (running === 0) caughtUp.resolve();
        },
        onError: (error) => {
          failure = error;
          finished.resolve();
        },
      },
    );
    const saver = setInterval(() => {
      void saveCheckpoint().catch((error: unknown) => logger?.warn({ err: error }, 'could not save the transfer process checkpoint'));
    }, options.checkpointEveryMs ?? 100);
    saver.unref();
    const stop = () => finished.resolve();
    stopping.signal.addEventListener('abort', stop);
    lost.addEventListener('abort', stop);
    try {
      await finished.promise;
    } finally {
      clearInterval(saver);
      stopping.signal.removeEventListener('abort', stop);
      lost.removeEventListener('abort', stop);
      await subscription.stop();
      slotFreed?.();
      await Promise.allSettled([...tasks]);
      await saveCheckpoint().catch((error: unknown) => logger?.warn({ err: error }, 'could not save the transfer process checkpoint'));
    }
    if (failure !== undefined && !stopping.signal.aborted && !lost.aborted) throw failure;
  }

  async function saveCheckpoint(): Promise<void> {
    const position = safePosition();
    if (!position) return;
    const text = formatPosition(position);
    if (text === saved) return;
    await saveProcessCheckpoint(options.pool, name, position);
    saved = text;
  }

  async function run(): Promise<void> {
    await ensureProcessSchema(options.pool);
    while (!stopping.signal.aborted) {
      const session = await acquireLeaderLock({
        connection: options.pool.options,
        lockClass: 'bank.transfers',
        name,
        retryMs: options.leaderRetryMs ?? 500,
        signal: stopping.signal,
        onStandby: () => {
          state = 'standby';
          ready.resolve();
          logger?.info({ process: name }, 'transfer process waiting as a standby');
        },
      });
      if (!session) break;
      state = 'leader';
      ready.resolve();
      logger?.info({ process: name }, 'transfer process is the leader');
      try {
        await follow(session.lost);
      } catch (error) {
        logger?.warn({ err: error }, 'transfer process lost the log; following it again from the checkpoint');
        await sleep(500, stopping.signal);
      } finally {
        await session.release();
      }
    }
    state = 'stopped';
  }

  const done = run().catch((error: unknown) => {
    ready.reject(error);
    caughtUp.reject(error);
    state = 'stopped';
    logger?.error({ err: error }, 'transfer process stopped');
  });

  return {
    ready: ready.promise,
    caughtUp: caughtUp.promise,
    status: () => ({ state, inFlight: running, checkpoint: saved }),
    async stop() {
      stopping.abort();
      await done;
    },
  };
}
