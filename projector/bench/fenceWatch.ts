import type pg from 'pg';

/**
 * Watches, every 50 ms, for transactions of OTHER databases of the same server that hold a transaction id for
 * more than 100 ms. The PostgreSQL event store shows readers only events below the oldest running transaction id
 * of the whole server (its visibility fence, docs/eventstore.md), so on a shared server someone else's long
 * transaction (a DROP DATABASE of a test suite) stalls every subscriber here: the bench reports how long.
 */
export function watchForeignFence(pool: pg.Pool) {
  let stopped = false;
  let longestMs = 0;
  let longestBy = '';
  let heldMs = 0;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const { rows } = await pool
        .query<{ datname: string; ms: number; query: string }>(
          `SELECT datname, extract(epoch from now() - xact_start) * 1000 AS ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 60) AS query
             FROM pg_stat_activity
            WHERE backend_xid IS NOT NULL AND datname IS DISTINCT FROM current_database() AND now() - xact_start > interval '100 ms'
            ORDER BY xact_start LIMIT 1`,
        )
        .catch(() => ({ rows: [] as { datname: string; ms: number; query: string }[] }));
      const oldest = rows[0];
      if (oldest) {
        heldMs += 50;
        if (oldest.ms > longestMs) {
          longestMs = Math.round(oldest.ms);
          longestBy = `${oldest.datname}: ${oldest.query}`;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 50 - (performance.now() - started))));
    }
  })();
  return {
    async stop(): Promise<{ longestMs: number; longestBy: string; heldMs: number; text: string }> {
      stopped = true;
      await loop;
      const text = longestMs ? `other databases held the fence > 100 ms for about ${heldMs} ms in all, longest ${longestMs} ms (${longestBy})` : 'no other database held the fence > 100 ms';
      return { longestMs, longestBy, heldMs, text };
    },
  };
}
