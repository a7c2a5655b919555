import type { CommandHandler } from '@bank/commands';
import { customerDecider, eventTypesOfStream, isRegistered, parseStreamName, streams, type Customer } from '@bank/domain';
import { comparePositions, formatPosition, parsePosition, type EventStore, type Position, type RecordedEvent } from '@bank/eventstore';
import { acquireLeaderLock, sleep, type Logger } from '@bank/platform';
import type pg from 'pg';
import { MAIL_EVENT_TYPES, messagesForEvent, type MailLookups } from './eventMessages';
import type { OutgoingMessage } from './mailOutbox';
import { STATEMENT_EVENT, statementMonthOf, statementNotices } from './statementNotices';

/** Messages recorded at most at once; a handler that fills the batch waits for it to be recorded (backpressure). */
const MAX_BATCH = 200;
/** How long messages wait for more before they are recorded when no read of the log ends sooner. */
const BATCH_WAIT_MS = 20;
/** Payers of recent internal transfers remembered from their debits (the oldest forgotten first). */
const KNOWN_PAYERS = 10_000;
/** Read besides MAIL_EVENT_TYPES: a transfer's debit names its payer (it sends nothing itself). */
const PAYER_EVENT = 'AccountDebited';
/** Customers remembered as last read (the oldest forgotten first). */
const KNOWN_CUSTOMERS = 10_000;
/** Read besides MAIL_EVENT_TYPES: every event of a customer's stream makes the reactor forget what it read of them. */
const CUSTOMER_EVENTS: readonly string[] = eventTypesOfStream('customer');
const SENDING_EVENTS: ReadonlySet<string> = new Set(MAIL_EVENT_TYPES);

export interface MailReactorOptions {
  readonly store: EventStore;
  readonly commands: CommandHandler;
  readonly pool: pg.Pool;
  /**
   * Records a batch of messages in one transaction (idempotent by their ids), leaving out the optional notices their
   * users turned off: MailOutbox.enqueueWanted.
   */
  readonly record: (messages: readonly OutgoingMessage[]) => Promise<void>;
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
 * each under its own id; the messages of many events are recorded together (one statement, one transaction, with
 * the users' preferences: at the end of each read of the log, at MAX_BATCH messages, or after BATCH_WAIT_MS). The
 * checkpoint moves past an event once its messages are recorded, so a crash makes it record some again, which the
 * outbox turns into nothing (same id). The close of a month's last business date sends every customer a "statement
 * ready" notice (statementNotices.ts). A first start with no checkpoint begins at the
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

  // transferId → payer, from the debits of internal transfers the reactor read: a money-received notice names its
  // payer without reading the transfer's record (the debit comes before its credit in the log). After a restart the
  // debits before the checkpoint are not read again: those notices read the record.
  const payers = new Map<string, string>();
  const notePayer = (event: RecordedEvent) => {
    const stream = parseStreamName(event.streamId);
    const data = event.data as { transferId?: unknown; intent?: { internal?: unknown } };
    if (stream?.category !== 'account' || typeof data.transferId !== 'string' || data.intent?.internal !== true) return;
    payers.set(data.transferId, stream.id);
    if (payers.size > KNOWN_PAYERS) payers.delete(payers.keys().next().value!);
  };

  // userId → the customer as read from their stream, kept until the reactor reads an event of that stream: each event
  // is handled after every event before it in the log, so a customer kept here holds at least every change made before
  // the event being handled (as a fresh read would) — one read per customer instead of one per notice. Cleared when
  // the reactor (re)starts following the log.
  const customers = new Map<string, Customer>();
  const noteCustomerEvent = (event: RecordedEvent) => {
    const stream = parseStreamName(event.streamId);
    if (stream?.category === 'customer') customers.delete(stream.id);
  };

  const lookups: MailLookups = {
    async customer(userId) {
      const known = customers.get(userId);
      if (known) return known;
      const customer = await options.commands.read(customerDecider, streams.customer(userId), (s) => (isRegistered(s) ? ({ ...s } as Customer) : undefined));
      if (customer) {
        customers.set(userId, customer);
        if (customers.size > KNOWN_CUSTOMERS) customers.delete(customers.keys().next().value!);
      }
      return customer;
    },
    async transferPayer(transferId) {
      const known = payers.get(transferId);
      if (known) return known;
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

  /** The messages of an event (its look-ups retried until they answer). */
  async function messagesOf(event: RecordedEvent, lost: AbortSignal): Promise<OutgoingMessage[]> {
    for (let failures = 0; ; failures += 1) {
      if (stopping.signal.aborted || lost.aborted) throw new Error('The mail reactor is stopping');
      try {
        return await messagesForEvent(event, lookups);
      } catch (error) {
        logger?.[failures >= 3 ? 'error' : 'warn']({ err: error, event: event.id, type: event.type, failures: failures + 1 }, 'Could not work out the messages of an event; retrying');
        await sleep(Math.min(30_000, 100 * 2 ** failures), stopping.signal);
      }
    }
  }

  /** Records a batch, retried until it is recorded (or the reactor stops: its events are handled again next time). */
  async function recordBatch(messages: readonly OutgoingMessage[], lost: AbortSignal): Promise<void> {
    for (let failures = 0; ; failures += 1) {
      if (stopping.signal.aborted || lost.aborted) throw new Error('The mail reactor is stopping');
      try {
        await options.record(messages);
        return;
      } catch (error) {
        logger?.[failures >= 3 ? 'error' : 'warn']({ err: error, messages: messages.length, failures: failures + 1 }, 'Could not queue a batch of messages; retrying');
        await sleep(Math.min(30_000, 100 * 2 ** failures), stopping.signal);
      }
    }
  }

  async function follow(lost: AbortSignal): Promise<void> {
    customers.clear();
    let after = await readCheckpoint(options.pool, name);
    if (!after) {
      after = await options.store.headPosition();
      if (after) await saveCheckpoint(options.pool, name, after);
      logger?.info({ position: after ? formatPosition(after) : 'start' }, 'The mail reactor starts at the head of the log: earlier events send nothing');
    }
    saved = after ? formatPosition(after) : undefined;
    /** Where the checkpoint may go: every event up to it has its messages recorded. */
    let lastSeen = after;
    const advance = (position: Position | undefined) => {
      if (position && (!lastSeen || comparePositions(position, lastSeen) > 0)) lastSeen = position;
    };
    let failure: unknown;
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });

    // The batch being gathered: the messages of the events handled since the last one was recorded, the last such
    // event, and the furthest position the subscription reported (onProgress) meanwhile.
    let batch: OutgoingMessage[] = [];
    let batchUpTo: Position | undefined;
    let progress: Position | undefined;
    let timer: NodeJS.Timeout | undefined;
    let recording: Promise<void> = Promise.resolve();
    const recordNow = (): Promise<void> => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      recording = recording.then(async () => {
        if (failure !== undefined || (!batchUpTo && !progress)) return;
        const messages = batch;
        const upTo = batchUpTo;
        const reported = progress;
        batch = [];
        batchUpTo = undefined;
        progress = undefined;
        try {
          if (messages.length > 0) await recordBatch(messages, lost);
          advance(upTo);
          advance(reported);
        } catch (error) {
          failure = error;
          finish();
        }
      });
      return recording;
    };

    const subscription = options.store.subscribe(
      async (event) => {
        if (event.type === PAYER_EVENT) notePayer(event);
        noteCustomerEvent(event);
        // A month-end close: every customer's "statement ready" notice, recorded a page at a time before the
        // checkpoint may pass the close.
        const month = statementMonthOf(event);
        if (month) {
          for await (const page of statementNotices(options.pool, event, month, { signal: lost, logger })) await recordBatch(page, lost);
        }
        const messages = SENDING_EVENTS.has(event.type) ? await messagesOf(event, lost) : [];
        batch.push(...messages);
        batchUpTo = event.position;
        if (batch.length >= MAX_BATCH) await recordNow();
        else timer ??= setTimeout(() => void recordNow(), BATCH_WAIT_MS);
        if (failure !== undefined) throw failure;
      },
      {
        ...(after ? { after } : {}),
        eventTypes: [...new Set([...MAIL_EVENT_TYPES, PAYER_EVENT, STATEMENT_EVENT, ...CUSTOMER_EVENTS])],
        // The end of a read: every event up to `position` was handled (its messages are in the batch): record them.
        onProgress: (position) => {
          if (!progress || comparePositions(position, progress) > 0) progress = position;
          void recordNow();
        },
        onError: (error) => {
          failure ??= error;
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
      // What was gathered is recorded if it still can be (not when stopping: handled again after the restart).
      await recordNow();
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
