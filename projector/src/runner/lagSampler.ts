import { comparePositions, type EventStore } from '@bank/eventstore';
import { positionOrUndefined } from '../checkpoint/checkpointStore';
import type { ProjectorMetrics } from '../metrics/projectorMetrics';

/**
 * Samples the lag behind the log's head: in events (the distance between the positions' tokens — the global
 * sequence on PostgreSQL) and in milliseconds (age of the oldest event not applied yet; 0 when caught up).
 */
export async function sampleLag(
  store: EventStore,
  applied: string | null | undefined,
  metrics: ProjectorMetrics,
  labels: { projector: string },
): Promise<{ events: number; milliseconds: number }> {
  const head = await store.headPosition();
  const at = positionOrUndefined(applied);
  if (!head || (at && comparePositions(head, at) <= 0)) {
    metrics.lagEvents.set(labels, 0);
    metrics.lagMilliseconds.set(labels, 0);
    return { events: 0, milliseconds: 0 };
  }
  const [next] = await store.readAll({ after: at, limit: 1 });
  const headToken = store.positionToken(head);
  const appliedToken = at ? store.positionToken(at) : '0';
  const events = /^\d+$/.test(headToken) && /^\d+$/.test(appliedToken) ? Math.max(0, Number(BigInt(headToken) - BigInt(appliedToken))) : 0;
  const milliseconds = next ? Math.max(0, Date.now() - next.created.getTime()) : 0;
  metrics.lagEvents.set(labels, events);
  metrics.lagMilliseconds.set(labels, milliseconds);
  return { events, milliseconds };
}
