import type pg from 'pg';

/** The tables whose rows the projector updates in place (migration 12 leaves most of them room on the page). */
const UPDATED_TABLES = ['users', 'accounts', 'transactions', 'transfers'] as const;

/**
 * The live schema's row updates so far, and how many of them were HOT (the new version on the row's own page, no
 * index touched), from `pg_stat_user_tables`: counts, which the host's noise does not move. The server publishes a
 * backend's counts about a second after its transactions (up to ten while it stays idle), so a line read just after
 * a phase may miss its last batches; a rebuild's swap starts the counts again (new tables).
 */
export async function hotUpdates(pool: pg.Pool, schema = 'rm'): Promise<string> {
  const { rows } = await pool.query<{ relname: string; updated: string; hot: string }>(
    `SELECT relname, n_tup_upd AS updated, n_tup_hot_upd AS hot
       FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = ANY ($2::text[]) ORDER BY relname`,
    [schema, UPDATED_TABLES],
  );
  const parts = rows.map((row) => {
    const updated = Number(row.updated);
    const hot = Number(row.hot);
    return `${row.relname} ${hot}/${updated}${updated > 0 ? ` (${Math.round((100 * hot) / updated)} %)` : ''}`;
  });
  return `HOT updates of the live schema so far: ${parts.join(', ')}`;
}
