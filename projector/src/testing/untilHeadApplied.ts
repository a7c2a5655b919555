import { formatPosition, type EventStore, type Position } from '@bank/eventstore';
import type pg from 'pg';
import { schemaIdent } from '../schema/readModelSchema';

/**
 * Waits until the read models of `schema` have applied the log's head. `caughtUp` alone is not enough in a test
 * that then counts rows: the store's subscription reports caught up when a read comes back short, and on a shared
 * PostgreSQL server a transaction of another database can hold events back from that read (the event store's
 * visibility fence), so the last events may still be on their way. The head itself is read through that fence:
 * a test that knows the position of its last append waits for that (`position`).
 */
export async function untilHeadApplied(pool: pg.Pool, store: EventStore, options: { schema?: string; name?: string; timeoutMs?: number; position?: Position } = {}): Promise<void> {
  const head = options.position ?? (await store.headPosition());
  if (!head) return;
  const target = formatPosition(head);
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const { rows } = await pool
      .query<{ position: string | null }>(`SELECT position FROM ${schemaIdent(options.schema ?? 'rm')}.checkpoint WHERE name = $1`, [options.name ?? 'main'])
      .catch(() => ({ rows: [] as { position: string | null }[] }));
    if ((rows[0]?.position ?? '') >= target) return;
    if (Date.now() > deadline) throw new Error(`${options.schema ?? 'rm'} did not apply the log's head ${target} in time`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
