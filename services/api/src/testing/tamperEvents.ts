import { EVENTS_APPEND_ONLY_TRIGGER } from '@bank/eventstore';
import type pg from 'pg';

/**
 * Runs an UPDATE or DELETE on the PostgreSQL events table as an attacker with the table owner's rights would: the
 * append-only trigger disabled, for this one transaction (nobody else ever sees it off). The tests of the audit use it
 * to show what the verification catches once someone got past the trigger.
 */
export async function tamperEvents(pool: pg.Pool, sql: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`ALTER TABLE eventstore.events DISABLE TRIGGER ${EVENTS_APPEND_ONLY_TRIGGER}`);
    const result = await client.query(sql, values);
    await client.query(`ALTER TABLE eventstore.events ENABLE TRIGGER ${EVENTS_APPEND_ONLY_TRIGGER}`);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
