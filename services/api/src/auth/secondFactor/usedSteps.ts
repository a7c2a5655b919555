import type pg from 'pg';

type Queryable = Pick<pg.PoolClient, 'query'>;

/**
 * No replay: the newest TOTP step accepted per user (auth.totp_steps). Claiming a step succeeds only when it is
 * newer than the one recorded, in one statement (INSERT … ON CONFLICT … WHERE last_step < step), so two requests
 * carrying the same code cannot both pass, whichever server they reach.
 */
export async function claimStep(db: Queryable, userId: string, step: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO auth.totp_steps (user_id, last_step) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET last_step = EXCLUDED.last_step, updated_at = now() WHERE auth.totp_steps.last_step < EXCLUDED.last_step`,
    [userId, step],
  );
  return rowCount === 1;
}

/** An enrolment's confirming code starts the record afresh (a new secret has no history). */
export async function resetStep(db: Queryable, userId: string, step: number): Promise<void> {
  await db.query(
    `INSERT INTO auth.totp_steps (user_id, last_step) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET last_step = EXCLUDED.last_step, updated_at = now()`,
    [userId, step],
  );
}
