import type pg from 'pg';

const UNDEFINED_TABLE = '42P01';

/** Finds the ids of the standing orders a customer pays (the audit reads their events from the event store). */
export type StandingOrderDiscovery = (userId: string) => Promise<readonly string[]>;

/**
 * The orders rm.standing_orders lists for a payer, created or not paid yet included. The read model only points at
 * the streams: the events come from the store, and a stream whose StandingOrderCreated names another payer is left out.
 */
export function standingOrdersOfPayer(pool: pg.Pool): StandingOrderDiscovery {
  return async (userId) => {
    try {
      const { rows } = await pool.query<{ id: string }>('SELECT id FROM rm.standing_orders WHERE payer_id = $1 ORDER BY created_at, id', [userId]);
      return rows.map((row) => row.id);
    } catch (error) {
      // A database without the read models (an auditor's copy of the event store): the orders their payments name.
      if ((error as { code?: string }).code === UNDEFINED_TABLE) return [];
      throw error;
    }
  };
}
