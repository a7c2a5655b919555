import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { MessageKind } from './messageKinds';

export const MAIL_QUEUE = 'mail';

/** A message to send: who to, its kind and what its template needs (never a secret: links are made as it is sent). */
export interface OutgoingMessage {
  /** `<kind>.<source id>` (messageIdOf): the queue's job id and the Message-ID's left side. */
  readonly id: string;
  readonly kind: MessageKind;
  readonly userId: string;
  readonly to: string;
  readonly data: Readonly<Record<string, string>>;
}

export interface MailOutbox {
  readonly queue: Queue;
  /** Records the message (once: a second call with the same id changes nothing) and queues its sending. */
  enqueue(message: OutgoingMessage): Promise<void>;
  /**
   * Queues again the messages recorded as queued for longer than `olderThanMs` (a job Redis lost: a flush, a
   * failover). A message whose job still exists is not queued twice (same job id). Returns how many it looked at.
   */
  requeueStranded(olderThanMs: number): Promise<number>;
  close(): Promise<void>;
}

export interface MailOutboxOptions {
  readonly pool: pg.Pool;
  readonly connection: Redis;
  /** BullMQ's prefix (REDIS_PREFIX without its trailing ':'). */
  readonly prefix: string;
  readonly attempts: number;
}

/**
 * The outbox: a row in mail.messages, then a job `send` with the message's id as its job id. BullMQ adds no second
 * job with the same id, and the sender skips a message its row says went, so a message is queued and sent once per
 * event and recipient, whoever enqueues it again (a reactor replaying the log after a crash).
 */
export function createMailOutbox(options: MailOutboxOptions): MailOutbox {
  const queue = new Queue(MAIL_QUEUE, { connection: options.connection, prefix: options.prefix });
  queue.on('error', () => undefined);
  const add = (messageId: string) =>
    queue.add(
      'send',
      { messageId },
      {
        jobId: messageId,
        attempts: options.attempts,
        backoff: { type: 'mail' },
        removeOnComplete: { age: 7 * 24 * 3600, count: 50_000 },
        removeOnFail: { age: 30 * 24 * 3600 },
      },
    );
  return {
    queue,
    async enqueue(message) {
      await options.pool.query(
        `INSERT INTO mail.messages (id, kind, user_id, recipient, data) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
        [message.id, message.kind, message.userId, message.to, JSON.stringify(message.data)],
      );
      await add(message.id);
    },
    async requeueStranded(olderThanMs) {
      const { rows } = await options.pool.query<{ id: string }>(
        `SELECT id FROM mail.messages WHERE status = 'queued' AND created_at < now() - make_interval(secs => $1) ORDER BY created_at LIMIT 1000`,
        [olderThanMs / 1000],
      );
      for (const row of rows) await add(row.id);
      return rows.length;
    },
    async close() {
      await queue.close();
    },
  };
}
