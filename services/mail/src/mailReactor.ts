import type { CommandHandler } from '@bank/commands';
import { customerDecider, isRegistered, streams, type Customer } from '@bank/domain';
import { comparePositions, formatPosition, parsePosition, type EventStore, type Position, type RecordedEvent } from '@bank/eventstore';
import { acquireLeaderLock, sleep, type Logger } from '@bank/platform';
import type pg from 'pg';
import { MAIL_EVENT_TYPES, messagesForEvent, type MailLookups } from './eventMessages';
import type { OutgoingMessage } from './mailOutbox';
import { wantsMessage } from './preferences';

export interface MailReactorOptions {
  readonly store: EventStore;
  readonly commands: CommandHandler;
  readonly pool: pg.Pool;
  /** Queues one message (idempotent by its id). */
  readonly enqueue: (message: OutgoingMessage) => Promise<void>;
  readonly logger?: Logger;
  /** Checkpoint and lock name. Default 'mail'. */
  readonly name?: string;
  readonly leaderRetryMs?: number;
  readonly checkpointEveryMs?: number;
  /** How long a money-received notice waits for its transfer's record to name the payer. Default 3000 ms. */
  readonly payerWaitMs?: number;
}

export interface MailReactorHandle {
  readonly ready: Promise<void>;
  status(): { readonly state: 'starting' | 'standby' | 'leader' | 'stopped'; readonly checkpoint: string | undefined };
  stop(): Promise<void>;
}

async function readCheckpoint(pool: pg.Pool, name: string): Promise<Position | undefined> {
  const { rows } = await pool.query<{ position: string }>('SELECT position FROM mail.checkpoint WHERE name = $1', [name]);
  return rows[0] ? parsePosition(rows[0].position) : undefined;
}

async function saveCheckpoint(pool: pg.Pool, name: string, position: Position): Promise<void> {
  await pool.query(
    `INSERT INTO mail.checkpoint (name, position) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, updated_at = now()`,
    [name, formatPosition(position)],
  );
}

/**
 * The mail reactor: a subscriber to the log (the events of MAIL_EVENT_TYPES) from its own checkpoint, one active
 * instance bank-wide (an advisory lock; others wait as standbys). Each event becomes its messages (eventMessages.ts),
 * each queued under its own id; the checkpoint moves past an event once its messages are queued, so a crash makes it
 * queue some again, which the outbox turns into nothing (same id). A first start with no checkpoint begins at the
 * log's head: the history before e-mail existed sends nothing.
 */
export function startMailReactor(options: MailReactorOptions): MailReactorHandle {
  const name = options.name ?? 'mail';
  const logger = options.logger;
  const stopping = new AbortController();
  let state: 'starting' | 'standby' | 'leader' | 'stopped' = 'starting';
  let saved: string | undefined;
  let resolveReady!: () => void;
  let rejectReady!: (error: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => undefined);

  const lookups: MailLookups = {
    async customer(userId) {
      const customer = await options.commands.read(customerDecider, streams.customer(userId), (s) => (isRegistered(s) ? ({ ...s } as Customer) : undefined));
      return customer;
    },
    async transferPayer(transferId) {
      const deadline = Date.now() + (options.payerWaitMs ?? 3000);
      for (;;) {
        const events = await options.store.readStream(streams.transfer(transferId), { limit: 1 });
        const payerId = events[0]?.type === 'TransferRequested' ? events[0].data.payerId : undefined;
        if (typeof payerId === 'string') return payerId;
        if (Date.now() > deadline || stopping.signal.aborted) return undefined;
        await sleep(100, stopping.signal);
      }
    },
    async standingOrder(orderId) {
      const events = await options.store.readStream(streams.standingOrder(orderId), { limit: 1 });
      const data = events[0]?.type === 'StandingOrderCreated' ? events[0].data : undefined;
      if (!data) return undefined;
      return { payerId: String(data.payerId), recipientName: String(data.recipientName), amountCents: Number(data.amountCents) };
    },
  };

  async function handle(event: RecordedEvent, lost: AbortSignal): Promise<void> {
    for (let failures = 0; ; failures += 1) {
      if (stopping.signal.aborted || lost.aborted) throw new Error('The mail reactor is stopping');
      try {
        for (const message of await messagesForEvent(event, lookups)) {
          if (await wantsMessage(options.pool, message.userId, message.kind)) await options.enqueue(message);
        }
        return;
      } catch (error) {
        logger?.[failures >= 3 ? 'error' : 'warn']({ err: error, event: event.id, type: event.type, failures: failures + 1 }, 'Could not queue the messages of an event; retrying');
        await sleep(Math.min(30_000, 100 * 2 ** failures), stopping.signal);
      }
    }
  }

  async function follow(lost: AbortSignal): Promise<void> {
    let after = await readCheckpoint(options.pool, name);
    if (!after) {
      after = await options.store.headPosition();
      if (after) await saveCheckpoint(options.pool, name, after);
      logger?.info({ position: after ? formatPosition(after) : 'start' }, 'The mail reactor starts at the head of the log: earlier events send nothing');
    }
    saved = after ? formatPosition(after) : undefined;
    let lastSeen = after;
    let failure: unknown;
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const subscription = options.store.subscribe(
      async (event) => {
        await handle(event, lost);
        lastSeen = event.position;
      },
      {
        ...(after ? { after } : {}),
        eventTypes: MAIL_EVENT_TYPES,
        onProgress: (position) => {
          if (!lastSeen || comparePositions(position, lastSeen) > 0) lastSeen = position;
        },
        onError: (error) => {
          failure = error;
          finish();
        },
      },
    );
    const save = async () => {
      if (!lastSeen) return;
      const text = formatPosition(lastSeen);
      if (text === saved) return;
      await saveCheckpoint(options.pool, name, lastSeen);
      saved = text;
    };
    const saver = setInterval(() => void save().catch((error: unknown) => logger?.warn({ err: error }, 'could not save the mail checkpoint')), options.checkpointEveryMs ?? 200);
    saver.unref();
    stopping.signal.addEventListener('abort', finish);
    lost.addEventListener('abort', finish);
    try {
      await finished;
    } finally {
      clearInterval(saver);
      stopping.signal.removeEventListener('abort', finish);
      lost.removeEventListener('abort', finish);
      await subscription.stop();
      await save().catch((error: unknown) => logger?.warn({ err: error }, 'could not save the mail checkpoint'));
    }
    if (failure !== undefined && !stopping.signal.aborted && !lost.aborted) throw failure;
  }

  async function run(): Promise<void> {
    while (!stopping.signal.aborted) {
      const session = await acquireLeaderLock({
        connection: options.pool.options,
        lockClass: 'bank.mail',
        name,
        retryMs: options.leaderRetryMs ?? 500,
        signal: stopping.signal,
        onStandby: () => {
          state = 'standby';
          resolveReady();
        },
      });
      if (!session) break;
      state = 'leader';
      resolveReady();
      logger?.info({ reactor: name }, 'mail reactor is the leader');
      try {
        await follow(session.lost);
      } catch (error) {
        logger?.warn({ err: error }, 'mail reactor lost the log; following it again from the checkpoint');
        await sleep(500, stopping.signal);
      } finally {
        await session.release();
      }
    }
    state = 'stopped';
  }

  const done = run().catch((error: unknown) => {
    rejectReady(error);
    state = 'stopped';
    logger?.error({ err: error }, 'mail reactor stopped');
  });

  return {
    ready,
    status: () => ({ state, checkpoint: saved }),
    async stop() {
      stopping.abort();
      await done;
    },
  };
}
