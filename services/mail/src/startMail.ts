import type { CommandHandler } from '@bank/commands';
import type { EventStore } from '@bank/eventstore';
import type { Logger } from '@bank/platform';
import type pg from 'pg';
import type { Registry } from 'prom-client';
import { bankDetails } from './bankDetails';
import { mailMetrics, type MailMetrics } from './mailMetrics';
import { createMailOutbox, type MailOutbox } from './mailOutbox';
import { startMailReactor, type MailReactorHandle } from './mailReactor';
import { startMailSender, type MailSender } from './mailSender';
import { ensureMailSchema } from './mailSchema';
import { loadMailSettings, type MailSettings } from './mailSettings';
import { transportFromSettings, type MailTransport } from './transport';

export interface MailDeps {
  readonly store: EventStore;
  readonly commands: CommandHandler;
  readonly pool: pg.Pool;
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
  readonly sender: MailSender;
  readonly outbox: MailOutbox;
  readonly metrics: MailMetrics;
  readonly transport: MailTransport;
  stop(): Promise<void>;
}

/** The worker's part of e-mail: the reactor on the log and the sender on the queue (docs/email.md). */
export async function startMail(deps: MailDeps): Promise<RunningMail> {
  const settings = deps.settings ?? loadMailSettings();
  const logger = deps.logger.child({ component: 'mail' });
  await ensureMailSchema(deps.pool);
  const transport = deps.transport ?? transportFromSettings(settings);
  const metrics = mailMetrics(deps.registry);
  const outbox = createMailOutbox({ pool: deps.pool });
  const sender = startMailSender({
    pool: deps.pool,
    transport,
    from: settings.MAIL_FROM,
    appOrigin: settings.APP_ORIGIN,
    bank: bankDetails(settings.BANK_ROUTING_NUMBER),
    metrics,
    logger,
    backoffMs: settings.MAIL_BACKOFF_MS,
    attempts: settings.MAIL_ATTEMPTS,
  });
  outbox.onQueued(() => sender.wake());
  const reactor = startMailReactor({
    store: deps.store,
    commands: deps.commands,
    pool: deps.pool,
    record: (messages) => outbox.enqueueWanted(messages),
    logger,
    ...(deps.reactorName ? { name: deps.reactorName } : {}),
  });
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
        await reactor.stop();
        await sender.close();
        transport.close();
      })();
      return stopped;
    },
  };
}
