import { streams } from '@bank/domain';
import type { EventStore } from '@bank/eventstore';
import { isUuid } from '@bank/platform';

/**
 * A user id from an id or an e-mail address. An e-mail is looked up in its reservation stream (the event store,
 * not the read models): the last user that reserved it. Undefined when neither is known.
 */
export async function resolveUserId(store: EventStore, idOrEmail: string): Promise<string | undefined> {
  const text = idOrEmail.trim();
  if (isUuid(text)) return text.toLowerCase();
  if (!text.includes('@')) return undefined;
  const reservations = await store.readStream(streams.email(text));
  const last = reservations.filter((event) => event.type === 'EmailReserved').at(-1);
  const userId = last?.data.userId;
  return typeof userId === 'string' ? userId : undefined;
}
