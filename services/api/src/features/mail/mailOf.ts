import { createMailOutbox, ensureMailSchema, type MailOutbox } from '@bank/mail';
import type { AppDeps } from '../../appDeps';

type Deps = Pick<AppDeps, 'pool' | 'redis' | 'config'>;

interface ApiMail {
  readonly outbox: MailOutbox;
  readonly ready: Promise<void>;
}

const cache = new WeakMap<object, ApiMail>();

/**
 * The API's side of the mail outbox (one per process; rows in mail.messages, see @bank/mail): the API queues the messages
 * a request asks for (a reset link, "Send again", a sign-in from a new device); the worker's sender sends them.
 */
export async function apiMailOf(deps: Deps): Promise<MailOutbox> {
  let mail = cache.get(deps.pool);
  if (!mail) {
    mail = {
      outbox: createMailOutbox({ pool: deps.pool }),
      ready: ensureMailSchema(deps.pool),
    };
    mail.ready.catch(() => cache.delete(deps.pool));
    cache.set(deps.pool, mail);
  }
  await mail.ready;
  return mail.outbox;
}

/** The mail tables exist (the API reads confirmations, tokens and preferences before the worker may have started). */
export async function mailTablesReady(deps: Deps): Promise<void> {
  await apiMailOf(deps);
}
