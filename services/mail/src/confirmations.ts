import type pg from 'pg';

/** user.emailVerified: the user confirmed their current address (false from sign-up until the link is opened). */
export async function isEmailConfirmed(pool: pg.Pool, userId: string, email: string): Promise<boolean> {
  const { rows } = await pool.query('SELECT 1 FROM mail.confirmations WHERE user_id = $1 AND email = $2', [userId, email.toLowerCase()]);
  return rows.length > 0;
}

export async function confirmEmail(db: Pick<pg.Pool, 'query'>, userId: string, email: string, at: Date): Promise<void> {
  await db.query('INSERT INTO mail.confirmations (user_id, email, confirmed_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [userId, email.toLowerCase(), at]);
}
