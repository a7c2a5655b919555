import { createNotificationListener, type NotificationListener } from '@bank/eventstore';
import { sleep, type Logger } from '@bank/platform';
import type pg from 'pg';
import type { BankDetails } from './bankDetails';
import type { MailMetrics } from './mailMetrics';
import { MAIL_CHANNEL } from './mailOutbox';
import { TOKEN_KINDS, type LinkKind, type MessageKind } from './messageKinds';
import { renderMessage } from './templates';
import { issueToken } from './tokens';
import { isPermanentFailure, messageHost, type MailTransport } from './transport';

export interface MailSenderOptions {
  readonly pool: pg.Pool;
  readonly transport: MailTransport;
  readonly from: string;
  readonly appOrigin: string;
  readonly bank: BankDetails;
  readonly metrics: MailMetrics;
  readonly logger: Logger;
  /** First wait after a temporary failure; doubled each try up to five minutes. */
  readonly backoffMs: number;
  /** Tries in all before a message is given up (MAIL_ATTEMPTS). */
  readonly attempts: number;
  /** Messages sent at once. Default 4. */
  readonly concurrency?: number;
  /** Rows claimed at a time. Default 32. */
  readonly batchSize?: number;
  /** How long a claim holds its rows: a sender that dies holding them leaves them due again after it. Default 5 minutes. */
  readonly leaseMs?: number;
  /** Looks for due rows at least this often (a missed notification, a message queued from a process without LISTEN). Default 5 s. */
  readonly pollMs?: number;
  readonly now?: () => Date;
}

export interface MailSender {
  /** Looks for due messages now (the outbox of this process recorded some). */
  wake(): void;
  /** Stops after the batch in hand is recorded. */
  close(): Promise<void>;
}

interface MessageRow {
  id: string;
  kind: MessageKind;
  user_id: string;
  recipient: string;
  data: Record<string, string>;
  attempts: number;
}

/** What became of one message of a batch: its row's next state. */
interface Outcome {
  readonly id: string;
  readonly status: 'sent' | 'queued' | 'failed' | 'skipped';
  readonly error: string | null;
  /** When a message tried again is next due. */
  readonly retryInMs: number;
}

export const MAX_BACKOFF_MS = 5 * 60_000;

export function mailBackoff(backoffMs: number, attemptsMade: number): number {
  return Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** Math.max(0, attemptsMade - 1));
}

/** Claims up to `limit` due rows: their due time moves past the lease, so no other sender takes them meanwhile. */
const CLAIM = `
  UPDATE mail.messages m SET attempts = m.attempts + 1, due_at = now() + make_interval(secs => $2)
  FROM (SELECT id FROM mail.messages WHERE status = 'queued' AND due_at <= now() ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED) c
  WHERE m.id = c.id
  RETURNING m.id, m.kind, m.user_id, m.recipient, m.data, m.attempts`;

/** Records a batch's outcomes in one statement (a row someone else settled meanwhile is left alone). */
const RECORD = `
  UPDATE mail.messages m
  SET status = r.status,
      error = r.error,
      sent_at = CASE WHEN r.status = 'sent' THEN $5::timestamptz ELSE m.sent_at END,
      due_at = CASE WHEN r.status = 'queued' THEN now() + make_interval(secs => r.retry_in) ELSE m.due_at END
  FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[]) AS r(id, status, error, retry_in)
  WHERE m.id = r.id AND m.status = 'queued'`;

/**
 * The sending: any number of worker processes claim due outbox rows (FOR UPDATE SKIP LOCKED, a batch at a time:
 * one statement), send them a few at once, and record the batch's outcomes in one statement. Woken by the outbox's
 * NOTIFY (LISTEN on a connection of its own) and by its own process's outbox, else it looks every `pollMs`. A
 * temporary failure (the server unreachable, a 4xx) leaves the row queued, due again after an exponential backoff;
 * after MAIL_ATTEMPTS tries it is given up (failed). A 5xx is permanent: logged, counted, the row marked failed, so
 * it never holds back the others. A sender that dies between sending and recording leaves its rows due again after
 * the lease: those are sent again with the same Message-ID (as a BullMQ job whose worker died was).
 */
export function startMailSender(options: MailSenderOptions): MailSender {
  const now = () => options.now?.() ?? new Date();
  const host = messageHost(options.from);
  const concurrency = options.concurrency ?? 4;
  const batchSize = options.batchSize ?? 32;
  const leaseSeconds = (options.leaseMs ?? 5 * 60_000) / 1000;
  const stopping = new AbortController();
  let wakeUp: (() => void) | undefined;
  let woken = false;
  const wake = () => {
    woken = true;
    wakeUp?.();
  };

  async function deliver(row: MessageRow): Promise<Outcome> {
    const linkOf = TOKEN_KINDS[row.kind];
    let link: string | undefined;
    if (linkOf) {
      const token = await issueToken(options.pool, { messageId: row.id, kind: row.kind as LinkKind, userId: row.user_id, email: row.recipient, ttlMs: linkOf.ttlMs, now: now() });
      if (!token) return { id: row.id, status: 'skipped', error: 'its link was already used', retryInMs: 0 };
      link = `${options.appOrigin}${linkOf.path}?token=${token}`;
    }
    const rendered = renderMessage(row.kind, row.data, { bank: options.bank, appOrigin: options.appOrigin, ...(link ? { link } : {}) });
    try {
      await options.transport.send({ id: row.id, from: options.from, to: row.recipient, ...rendered, messageId: `<${row.id}@${host}>` });
    } catch (error) {
      const text = String((error as Error).message);
      if (isPermanentFailure(error)) {
        options.metrics.messages.inc({ kind: row.kind, result: 'failed' });
        options.logger.error({ messageId: row.id, kind: row.kind, err: error }, 'The mail server refused a message for good: not tried again');
        return { id: row.id, status: 'failed', error: text.slice(0, 500), retryInMs: 0 };
      }
      if (row.attempts >= options.attempts) {
        options.metrics.messages.inc({ kind: row.kind, result: 'gave-up' });
        options.logger.error({ messageId: row.id, err: error }, 'A message was tried for the last time and not sent');
        return { id: row.id, status: 'failed', error: `gave up: ${text}`.slice(0, 500), retryInMs: 0 };
      }
      options.metrics.messages.inc({ kind: row.kind, result: 'retried' });
      options.logger.warn({ messageId: row.id, kind: row.kind, attempt: row.attempts, err: error }, 'Could not send a message; it waits and is tried again');
      return { id: row.id, status: 'queued', error: text.slice(0, 500), retryInMs: mailBackoff(options.backoffMs, row.attempts) };
    }
    options.metrics.messages.inc({ kind: row.kind, result: 'sent' });
    options.logger.info({ messageId: row.id, kind: row.kind }, 'Message sent');
    return { id: row.id, status: 'sent', error: null, retryInMs: 0 };
  }

  /** Sends the rows `concurrency` at a time; a row whose sending threw unexpectedly is tried again later. */
  async function sendAll(rows: readonly MessageRow[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, rows.length) }, async () => {
        while (next < rows.length) {
          const row = rows[next++]!;
          outcomes.push(
            await deliver(row).catch((error: unknown): Outcome => {
              options.logger.warn({ messageId: row.id, err: error }, 'Could not prepare a message; it is tried again');
              return { id: row.id, status: 'queued', error: String((error as Error).message).slice(0, 500), retryInMs: mailBackoff(options.backoffMs, row.attempts) };
            }),
          );
        }
      }),
    );
    return outcomes;
  }

  /** One round: claim, send, record. Returns how many rows it claimed and when the first one it put back is due. */
  async function round(): Promise<{ claimed: number; retryInMs: number | undefined }> {
    const { rows } = await options.pool.query<MessageRow>(CLAIM, [batchSize, leaseSeconds]);
    if (rows.length === 0) return { claimed: 0, retryInMs: undefined };
    const outcomes = await sendAll(rows);
    await options.pool.query(RECORD, [outcomes.map((o) => o.id), outcomes.map((o) => o.status), outcomes.map((o) => o.error), outcomes.map((o) => o.retryInMs / 1000), now()]);
    const retries = outcomes.filter((o) => o.status === 'queued').map((o) => o.retryInMs);
    return { claimed: rows.length, retryInMs: retries.length > 0 ? Math.min(...retries) : undefined };
  }

  async function run(): Promise<void> {
    for (let failures = 0; !stopping.signal.aborted; ) {
      woken = false;
      let outcome: Awaited<ReturnType<typeof round>>;
      try {
        outcome = await round();
        failures = 0;
      } catch (error) {
        failures += 1;
        options.logger.warn({ err: error, failures }, 'The mail sender could not read or record the outbox; trying again');
        await sleep(Math.min(30_000, 100 * 2 ** failures), stopping.signal).catch(() => undefined);
        continue;
      }
      const { claimed, retryInMs } = outcome;
      // A full batch may have more behind it; else wait for a notification or the next look.
      if (claimed >= batchSize || woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(options.pollMs ?? 5000, retryInMs ?? Infinity));
        stopping.signal.addEventListener('abort', done);
        wakeUp = done;
        function done() {
          clearTimeout(timer);
          stopping.signal.removeEventListener('abort', done);
          wakeUp = undefined;
          resolve();
        }
      });
    }
  }

  const listener: NotificationListener = createNotificationListener({ connection: options.pool.options, channel: MAIL_CHANNEL, logger: options.logger });
  const unregister = listener.register(wake);
  const running = run().catch((error: unknown) => options.logger.error({ err: error }, 'The mail sender stopped'));
  let closed: Promise<void> | undefined;
  return {
    wake,
    close() {
      closed ??= (async () => {
        stopping.abort();
        unregister();
        await running;
        await listener.close();
      })();
      return closed;
    },
  };
}
