import type pg from 'pg';
import { NOTICE_KINDS, SECURITY_NOTICE_KINDS, type MessageKind } from './messageKinds';

/** The channel a queued message is announced on (NOTIFY, in the statement that records it): the senders LISTEN. */
export const MAIL_CHANNEL = 'bank_mail_outbox';

/** A message to send: who to, its kind and what its template needs (never a secret: links are made as it is sent). */
export interface OutgoingMessage {
  /** `<kind>.<source id>` (messageIdOf): the outbox row's id and the Message-ID's left side. */
  readonly id: string;
  readonly kind: MessageKind;
  readonly userId: string;
  readonly to: string;
  readonly data: Readonly<Record<string, string>>;
}

/** What the queue-depth gauge (bank_queue_jobs{queue="mail"}) reads: the outbox rows by state. */
export interface MailQueueView {
  readonly name: string;
  getJobCounts(): Promise<Record<string, number>>;
}

export interface MailOutbox {
  readonly queue: MailQueueView;
  /** Records the message (once: a second call with the same id changes nothing) and NOTIFYs the senders (an API request's message: rare). */
  enqueue(message: OutgoingMessage): Promise<void>;
  /**
   * Records many messages in ONE statement (one transaction), leaving out the optional notices their user turned off
   * (mail.preferences, as wantsMessage decides), each once by its id. No NOTIFY: the reactor's process runs a sender,
   * woken through onQueued (a NOTIFY in a transaction that writes would take PostgreSQL's notify lock through its
   * WAL flush, which serialises the commits of every notifying transaction: see the event store's appendNotifier).
   */
  enqueueWanted(messages: readonly OutgoingMessage[]): Promise<void>;
  /** Calls `onQueued` after this process recorded messages (the sender of the same process starts at once). */
  onQueued(listener: () => void): void;
}

export interface MailOutboxOptions {
  readonly pool: pg.Pool;
}

/** Whether a message of this kind is one the user may turn off (an optional notice). */
export function isOptionalNotice(kind: MessageKind): boolean {
  return (NOTICE_KINDS as readonly string[]).includes(kind) && !(SECURITY_NOTICE_KINDS as readonly string[]).includes(kind);
}

/**
 * The outbox IS the queue: a row in mail.messages per message (id = the message id, so a message is recorded once
 * whoever records it again: a reactor replaying the log after a crash), sent by the senders that claim due rows
 * (mailSender.ts). No job per message: a row is recorded, with its preference check and the NOTIFY that wakes the
 * senders, in one statement.
 */
export function createMailOutbox(options: MailOutboxOptions): MailOutbox {
  const listeners: (() => void)[] = [];
  const record = async (messages: readonly OutgoingMessage[], fromReactor: boolean): Promise<void> => {
    if (messages.length === 0) return;
    await options.pool.query(
      `WITH m AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::uuid[], $4::text[], $5::jsonb[], $6::boolean[]) AS m(id, kind, user_id, recipient, data, optional)
       ), added AS (
         INSERT INTO mail.messages (id, kind, user_id, recipient, data)
         SELECT m.id, m.kind, m.user_id, m.recipient, m.data FROM m
         WHERE NOT m.optional OR coalesce((SELECT p.enabled FROM mail.preferences p WHERE p.user_id = m.user_id AND p.kind = m.kind), true)
         ON CONFLICT (id) DO NOTHING
         RETURNING 1
       )
       SELECT pg_notify($7, '') FROM (SELECT count(*) AS n FROM added) c WHERE c.n > 0 AND $8`,
      [
        messages.map((m) => m.id),
        messages.map((m) => m.kind),
        messages.map((m) => m.userId),
        messages.map((m) => m.to),
        messages.map((m) => JSON.stringify(m.data)),
        messages.map((m) => fromReactor && isOptionalNotice(m.kind)),
        MAIL_CHANNEL,
        !fromReactor,
      ],
    );
    for (const listener of listeners) listener();
  };
  return {
    queue: {
      name: 'mail',
      async getJobCounts() {
        const { rows } = await options.pool.query<{ waiting: number; delayed: number; failed: number }>(
          `SELECT count(*) FILTER (WHERE status = 'queued' AND due_at <= now())::int AS waiting,
                  count(*) FILTER (WHERE status = 'queued' AND due_at > now())::int AS delayed,
                  (SELECT count(*) FROM mail.messages WHERE status = 'failed')::int AS failed
           FROM mail.messages WHERE status = 'queued'`,
        );
        return { ...rows[0]!, active: 0, completed: 0 };
      },
    },
    enqueue: (message) => record([message], false),
    enqueueWanted: (messages) => record(messages, true),
    onQueued(listener) {
      listeners.push(listener);
    },
  };
}
