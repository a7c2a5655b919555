import type { EventStore } from '@bank/eventstore';
import { streams } from '@bank/domain';

/** A day close that found the books out of balance, as the periodic audit reports it. */
export interface UnbalancedClose {
  readonly kind: 'unbalanced-close';
  readonly businessDate: string;
  readonly totalDebitsCents: string;
  readonly totalCreditsCents: string;
}

/** Every close of the businessDays stream recorded with balanced: false (one event a day: a short read). */
export async function unbalancedCloses(store: EventStore): Promise<UnbalancedClose[]> {
  const events = await store.readStream(streams.businessDays());
  return events
    .filter((event) => event.type === 'BusinessDayClosed' && event.data.balanced === false)
    .map((event) => ({
      kind: 'unbalanced-close',
      businessDate: String(event.data.businessDate),
      totalDebitsCents: String(event.data.totalDebitsCents),
      totalCreditsCents: String(event.data.totalCreditsCents),
    }));
}
