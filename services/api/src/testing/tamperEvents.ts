import { EVENTS_APPEND_ONLY_TRIGGER } from '@bank/eventstore';
import { inTransaction } from '@bank/platform';
import type pg from 'pg';

/**
 * Runs an UPDATE or DELETE on the PostgreSQL events table as an attacker with the table owner's rights would: the
 * append-only trigger disabled, for this one transaction (nobody else ever sees it off). The tests of the audit use it
 * to show what the verification catches once someone got past the trigger.
 */
export async function tamperEvents(pool: pg.Pool, sql: string, values: unknown[] = []): Promise<pg.QueryResult> {
  return inTransaction(pool, async (client) => {
    await client.query(`ALTER TABLE eventstore.events DISABLE TRIGGER ${EVENTS_APPEND_ONLY_TRIGGER}`);
    const result = await client.query(sql, values);
    await client.query(`ALTER TABLE eventstore.events ENABLE TRIGGER ${EVENTS_APPEND_ONLY_TRIGGER}`);
    return result;
  });
}
