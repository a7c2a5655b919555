import type { CommandHandler } from '@bank/commands';
import type { EventStore } from '@bank/eventstore';
import type { Logger } from '@bank/platform';
import type { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { bankDetails } from './bankDetails';
import { mailMetrics, type MailMetrics } from './mailMetrics';
import { createMailOutbox, type MailOutbox } from './mailOutbox';
import { startMailReactor, type MailReactorHandle } from './mailReactor';
import { startMailSender } from './mailSender';
import { ensureMailSchema } from './mailSchema';
import { loadMailSettings, type MailSettings } from './mailSettings';
import { transportFromSettings, type MailTransport } from './transport';

export interface MailDeps {
  readonly store: EventStore;
  readonly commands: CommandHandler;
  readonly pool: pg.Pool;
  /** Redis for BullMQ (maxRetriesPerRequest: null). */
  readonly connection: Redis;
  /** BullMQ's prefix (bullPrefix(REDIS_PREFIX)). */
  readonly prefix: string;
  readonly logger: Logger;
  readonly registry?: Registry;
  /** Default: loadMailSettings() (the environment, read once). */
  readonly settings?: MailSettings;
  /** Default: SMTP to SMTP_URL, else .eml files under DATA_DIR/outbox/. */
  readonly transport?: MailTransport;
  readonly reactorName?: string;
}

export interface RunningMail {
  readonly reactor: MailReactorHandle;
  readonly sender: Worker;
  readonly outbox: MailOutbox;
  readonly metrics: MailMetrics;
  readonly transport: MailTransport;
  stop(): Promise<void>;
}

/** A message recorded as queued for this long without being sent is queued again (its job may be lost). */
export const STRANDED_AFTER_MS = 10 * 60_000;

/** The worker's part of e-mail: the reactor on the log and the sender on the queue (docs/email.md). */
export async function startMail(deps: MailDeps): Promise<RunningMail> {
  const settings = deps.settings ?? loadMailSettings();
  const logger = deps.logger.child({ component: 'mail' });
  await ensureMailSchema(deps.pool);
  const transport = deps.transport ?? transportFromSettings(settings);
  const metrics = mailMetrics(deps.registry);
  const outbox = createMailOutbox({ pool: deps.pool, connection: deps.connection, prefix: deps.prefix, attempts: settings.MAIL_ATTEMPTS });
  const sender = startMailSender({
    pool: deps.pool,
    connection: deps.connection,
    prefix: deps.prefix,
    transport,
    from: settings.MAIL_FROM,
    appOrigin: settings.APP_ORIGIN,
    bank: bankDetails(settings.BANK_ROUTING_NUMBER),
    metrics,
    logger,
    backoffMs: settings.MAIL_BACKOFF_MS,
  });
  const reactor = startMailReactor({
    store: deps.store,
    commands: deps.commands,
    pool: deps.pool,
    enqueue: (message) => outbox.enqueue(message),
    logger,
    ...(deps.reactorName ? { name: deps.reactorName } : {}),
  });
  // Messages whose job Redis lost are queued again (a job that still exists is left alone: same id).
  const requeue = setInterval(() => {
    outbox
      .requeueStranded(STRANDED_AFTER_MS)
      .catch((error: unknown) => logger.warn({ err: error }, 'Could not look for stranded messages'));
  }, STRANDED_AFTER_MS);
  requeue.unref();
  logger.info({ transport: transport.description, from: settings.MAIL_FROM, appOrigin: settings.APP_ORIGIN }, `Mail goes to ${transport.description}`);
  let stopped: Promise<void> | undefined;
  return {
    reactor,
    sender,
    outbox,
    metrics,
    transport,
    stop() {
      stopped ??= (async () => {
        clearInterval(requeue);
        await reactor.stop();
        await sender.close();
        await outbox.close();
        transport.close();
      })();
      return stopped;
    },
  };
}
