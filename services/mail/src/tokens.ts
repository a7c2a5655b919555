import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { LinkKind } from './messageKinds';

/** After this many wrong second-factor codes a reset link is ended. */
export const MAX_WRONG_CODES = 5;

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Makes the one-time token of a message as it is sent (256 random bits, base64url) and stores only its hash. A
 * message tried again gets a new token, which replaces the earlier one (that one never reached anybody, or the
 * newer message supersedes it); a token already used is never replaced.
 */
export async function issueToken(
  pool: pg.Pool,
  input: { readonly messageId: string; readonly kind: LinkKind; readonly userId: string; readonly email: string; readonly ttlMs: number; readonly now: Date },
): Promise<string | undefined> {
  const token = randomBytes(32).toString('base64url');
  const { rowCount } = await pool.query(
    `INSERT INTO mail.tokens AS t (message_id, kind, user_id, email, token_hash, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (message_id) DO UPDATE SET token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at
     WHERE t.used_at IS NULL`,
    [input.messageId, input.kind, input.userId, input.email, hashToken(token), new Date(input.now.getTime() + input.ttlMs), input.now],
  );
  return rowCount === 1 ? token : undefined;
}

export interface LiveToken {
  readonly messageId: string;
  readonly userId: string;
  readonly email: string;
  readonly wrongCodes: number;
}

/** The token's row when it is of this kind, unused, unexpired and not ended by wrong codes. */
export async function findLiveToken(db: Pick<pg.Pool, 'query'>, kind: LinkKind, token: string, now: Date): Promise<LiveToken | undefined> {
  const { rows } = await db.query<{ message_id: string; user_id: string; email: string; wrong_codes: number }>(
    `SELECT message_id, user_id, email, wrong_codes FROM mail.tokens
      WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > $3 AND wrong_codes < $4`,
    [hashToken(token), kind, now, MAX_WRONG_CODES],
  );
  const row = rows[0];
  return row ? { messageId: row.message_id, userId: row.user_id, email: row.email, wrongCodes: row.wrong_codes } : undefined;
}

/** Uses the token (once): false when it was used, expired or ended in the meantime. */
export async function useToken(db: Pick<pg.Pool, 'query'>, messageId: string, now: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE mail.tokens SET used_at = $2 WHERE message_id = $1 AND used_at IS NULL AND expires_at > $2 AND wrong_codes < $3`,
    [messageId, now, MAX_WRONG_CODES],
  );
  return rowCount === 1;
}

/**
 * Takes one of the link's code attempts before the code is compared: false when none is left (five wrong codes end
 * the link). One statement, so that requests at once cannot each compare a code while the count is read: the row's
 * lock orders them, and each sees the count the one before it left.
 */
export async function takeCodeAttempt(db: Pick<pg.Pool, 'query'>, messageId: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE mail.tokens SET wrong_codes = wrong_codes + 1 WHERE message_id = $1 AND used_at IS NULL AND wrong_codes < $2', [
    messageId,
    MAX_WRONG_CODES,
  ]);
  return rowCount === 1;
}

/** Gives back the attempt a right code took (before the link is used). */
export async function giveBackCodeAttempt(db: Pick<pg.Pool, 'query'>, messageId: string): Promise<void> {
  await db.query('UPDATE mail.tokens SET wrong_codes = wrong_codes - 1 WHERE message_id = $1 AND used_at IS NULL AND wrong_codes > 0', [messageId]);
}

/** Ends every unused link of a kind of the user (a password reset ends the other reset links). */
export async function endTokens(db: Pick<pg.Pool, 'query'>, userId: string, kind: LinkKind, now: Date): Promise<void> {
  await db.query('UPDATE mail.tokens SET used_at = $3 WHERE user_id = $1 AND kind = $2 AND used_at IS NULL', [userId, kind, now]);
}
