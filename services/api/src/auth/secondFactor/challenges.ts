import { createHash, randomBytes } from 'node:crypto';
import type { EncryptedSecret } from '@bank/domain';
import type pg from 'pg';
import type { AppDeps } from '../../appDeps';
import { ensureAuthSchema } from '../authSchema';

/**
 * The challenge between the password and the second factor of a sign-in: 256 random bits, given to the client
 * once; only its SHA-256 is stored (auth.challenges). It lives 5 minutes, belongs to one user, and is used once:
 * completing it marks it used in the same transaction that checks the code (the row is locked meanwhile, so two
 * parallel completions cannot both pass). A wrong code leaves it usable, within the failure limits.
 */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export type ChallengePurpose = 'totp' | 'enrol';

export interface Challenge {
  readonly idHash: string;
  readonly userId: string;
  readonly purpose: ChallengePurpose;
  /** An enrolment's secret once /auth/second-factor/enrol has made one, encrypted. */
  readonly pendingSecret: EncryptedSecret | null;
  readonly expiresAt: Date;
  readonly usedAt: Date | null;
}

interface ChallengeRow {
  id_hash: string;
  user_id: string;
  purpose: ChallengePurpose;
  pending_secret: EncryptedSecret | null;
  expires_at: Date;
  used_at: Date | null;
}

const hashOf = (challenge: string) => createHash('sha256').update(challenge).digest('hex');

function fromRow(row: ChallengeRow): Challenge {
  return { idHash: row.id_hash, userId: row.user_id, purpose: row.purpose, pendingSecret: row.pending_secret, expiresAt: row.expires_at, usedAt: row.used_at };
}

type Deps = Pick<AppDeps, 'pool' | 'now'>;
const now = (deps: Pick<AppDeps, 'now'>) => deps.now?.() ?? new Date();

/** A new challenge for `userId`; returns the string the client must send back. */
export async function createChallenge(deps: Deps, input: { userId: string; purpose: ChallengePurpose; address: string }): Promise<string> {
  await ensureAuthSchema(deps.pool);
  const challenge = randomBytes(32).toString('base64url');
  const at = now(deps);
  await deps.pool.query(
    `INSERT INTO auth.challenges (id_hash, user_id, purpose, address, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [hashOf(challenge), input.userId, input.purpose, input.address, at, new Date(at.getTime() + CHALLENGE_TTL_MS)],
  );
  // Housekeeping: challenges a day past their expiry are of no use to anyone.
  await deps.pool.query(`DELETE FROM auth.challenges WHERE expires_at < $1::timestamptz - interval '1 day'`, [at]);
  return challenge;
}

/** The live (unused, unexpired) challenge, or undefined. */
export async function findLiveChallenge(deps: Deps, challenge: string): Promise<Challenge | undefined> {
  await ensureAuthSchema(deps.pool);
  const { rows } = await deps.pool.query<ChallengeRow>(
    'SELECT id_hash, user_id, purpose, pending_secret, expires_at, used_at FROM auth.challenges WHERE id_hash = $1 AND used_at IS NULL AND expires_at > $2',
    [hashOf(challenge), now(deps)],
  );
  return rows[0] ? fromRow(rows[0]) : undefined;
}

/**
 * Keeps the enrolment's secret (encrypted) with its challenge, so that the QR code shown and the code checked agree.
 * The first secret kept wins: of two requests racing (a double click, a reload), both answer the one stored.
 */
export async function keepPendingSecret(deps: Deps, challenge: Challenge, secret: EncryptedSecret): Promise<EncryptedSecret | undefined> {
  await deps.pool.query('UPDATE auth.challenges SET pending_secret = $2 WHERE id_hash = $1 AND used_at IS NULL AND pending_secret IS NULL', [
    challenge.idHash,
    JSON.stringify(secret),
  ]);
  const { rows } = await deps.pool.query<{ pending_secret: EncryptedSecret | null }>('SELECT pending_secret FROM auth.challenges WHERE id_hash = $1', [challenge.idHash]);
  return rows[0]?.pending_secret ?? undefined;
}

/**
 * Runs `work` in a transaction holding the challenge's row lock, when the challenge is still live; the challenge is
 * marked used when `work` resolves, and stays as it was when it throws. Undefined: the challenge is used or expired.
 */
export async function completeChallenge<T>(
  deps: Deps,
  challenge: Challenge,
  work: (client: pg.PoolClient, locked: Challenge) => Promise<T>,
): Promise<{ readonly value: T } | undefined> {
  const client = await deps.pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<ChallengeRow>(
      'SELECT id_hash, user_id, purpose, pending_secret, expires_at, used_at FROM auth.challenges WHERE id_hash = $1 AND used_at IS NULL AND expires_at > $2 FOR UPDATE',
      [challenge.idHash, now(deps)],
    );
    const row = rows[0];
    if (!row) {
      await client.query('ROLLBACK');
      return undefined;
    }
    const value = await work(client, fromRow(row));
    await client.query('UPDATE auth.challenges SET used_at = $2 WHERE id_hash = $1', [challenge.idHash, now(deps)]);
    await client.query('COMMIT');
    return { value };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
