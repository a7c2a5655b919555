import type { Logger } from '@bank/platform';
import { Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { BankDetails } from './bankDetails';
import type { MailMetrics } from './mailMetrics';
import { MAIL_QUEUE } from './mailOutbox';
import { TOKEN_KINDS, type LinkKind, type MessageKind } from './messageKinds';
import { renderMessage } from './templates';
import { issueToken } from './tokens';
import { isPermanentFailure, messageHost, type MailTransport } from './transport';

export interface MailSenderOptions {
  readonly pool: pg.Pool;
  readonly connection: Redis;
  readonly prefix: string;
  readonly transport: MailTransport;
  readonly from: string;
  readonly appOrigin: string;
  readonly bank: BankDetails;
  readonly metrics: MailMetrics;
  readonly logger: Logger;
  /** First wait after a temporary failure; doubled each try up to five minutes. */
  readonly backoffMs: number;
  readonly concurrency?: number;
  readonly now?: () => Date;
}

interface MessageRow {
  id: string;
  kind: MessageKind;
  user_id: string;
  recipient: string;
  data: Record<string, string>;
  status: string;
}

export const MAX_BACKOFF_MS = 5 * 60_000;

export function mailBackoff(backoffMs: number, attemptsMade: number): number {
  return Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** Math.max(0, attemptsMade - 1));
}

/**
 * The sending: a BullMQ worker on the `mail` queue (any number of worker processes share it). A job sends the
 * message its row holds, unless the row says it went; a temporary failure (the server unreachable, a 4xx) throws and
 * BullMQ tries again with backoff; a 5xx is permanent: logged, counted, the row marked failed, the job done, so that
 * it never holds back the others.
 */
export function startMailSender(options: MailSenderOptions): Worker {
  const now = () => options.now?.() ?? new Date();
  const host = messageHost(options.from);

  async function deliver(job: Job<{ messageId: string }>): Promise<string> {
    const { rows } = await options.pool.query<MessageRow>('SELECT id, kind, user_id, recipient, data, status FROM mail.messages WHERE id = $1', [job.data.messageId]);
    const row = rows[0];
    if (!row) {
      options.logger.warn({ messageId: job.data.messageId }, 'A mail job without its message: nothing to send');
      return 'missing';
    }
    if (row.status !== 'queued') return row.status;
    const linkOf = TOKEN_KINDS[row.kind];
    let link: string | undefined;
    if (linkOf) {
      const token = await issueToken(options.pool, { messageId: row.id, kind: row.kind as LinkKind, userId: row.user_id, email: row.recipient, ttlMs: linkOf.ttlMs, now: now() });
      if (!token) return 'link-used';
      link = `${options.appOrigin}${linkOf.path}?token=${token}`;
    }
    const rendered = renderMessage(row.kind, row.data, { bank: options.bank, appOrigin: options.appOrigin, ...(link ? { link } : {}) });
    try {
      await options.transport.send({ id: row.id, from: options.from, to: row.recipient, ...rendered, messageId: `<${row.id}@${host}>` });
    } catch (error) {
      if (isPermanentFailure(error)) {
        await options.pool.query(`UPDATE mail.messages SET status = 'failed', error = $2 WHERE id = $1`, [row.id, String((error as Error).message).slice(0, 500)]);
        options.metrics.messages.inc({ kind: row.kind, result: 'failed' });
        options.logger.error({ messageId: row.id, kind: row.kind, err: error }, 'The mail server refused a message for good: not tried again');
        return 'failed';
      }
      options.metrics.messages.inc({ kind: row.kind, result: 'retried' });
      options.logger.warn({ messageId: row.id, kind: row.kind, attempt: job.attemptsMade + 1, err: error }, 'Could not send a message; it waits and is tried again');
      throw error;
    }
    await options.pool.query(`UPDATE mail.messages SET status = 'sent', sent_at = $2, error = NULL WHERE id = $1`, [row.id, now()]);
    options.metrics.messages.inc({ kind: row.kind, result: 'sent' });
    options.logger.info({ messageId: row.id, kind: row.kind }, 'Message sent');
    return 'sent';
  }

  const worker = new Worker(MAIL_QUEUE, deliver, {
    connection: options.connection,
    prefix: options.prefix,
    concurrency: options.concurrency ?? 4,
    settings: { backoffStrategy: (attemptsMade: number) => mailBackoff(options.backoffMs, attemptsMade) },
  });
  worker.on('error', (error) => options.logger.warn({ err: error }, 'Mail worker: Redis error'));
  worker.on('failed', (job, error) => {
    if (!job || job.attemptsMade < (job.opts.attempts ?? 1)) return;
    void options.pool
      .query(`UPDATE mail.messages SET status = 'failed', error = $2 WHERE id = $1 AND status = 'queued'`, [job.data.messageId, `gave up: ${error.message}`.slice(0, 500)])
      .catch(() => undefined);
    options.metrics.messages.inc({ kind: String(job.data.messageId).split('.')[0] ?? 'unknown', result: 'gave-up' });
    options.logger.error({ messageId: job.data.messageId, err: error }, 'A message was tried for the last time and not sent');
  });
  return worker;
}
