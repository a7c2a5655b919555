import { randomUUID } from 'node:crypto';
import { streams } from '@bank/domain';
import type { EventStore, NewEvent } from '@bank/eventstore';

const BATCH = 1000;

/**
 * Appends `count` staff postings to a customer's account (alternately credits and debits, every minute from
 * `start`) straight to the event store in batches: a long history without a command per transaction.
 * Returns the checking balance after them, in cents.
 */
export async function appendLongHistory(store: EventStore, userId: string, count: number, start: Date, openingCents = 0): Promise<number> {
  const stream = streams.account(userId);
  let balance = openingCents;
  for (let offset = 0; offset < count; offset += BATCH) {
    const events: NewEvent[] = [];
    for (let n = offset; n < Math.min(count, offset + BATCH); n += 1) {
      const at = new Date(start.getTime() + n * 60_000).toISOString();
      const credit = n % 3 !== 2;
      const amountCents = 100 + (n % 997);
      balance += credit ? amountCents : -amountCents;
      events.push({
        id: randomUUID(),
        type: 'StaffTransactionPosted',
        data: {
          transactionId: randomUUID(),
          account: 'checking',
          amountCents,
          direction: credit ? 'credit' : 'debit',
          description: `Posting ${n + 1}`,
          status: 'completed',
          occurredAt: at,
          balanceAfterCents: balance,
          adminId: userId,
          postedAt: at,
        },
        metadata: { occurredAt: at, schemaVersion: 1, actorRole: 'system' },
      });
    }
    await store.append(stream, events, 'any');
  }
  return balance;
}
