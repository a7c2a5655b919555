import type pg from 'pg';

/**
 * Durable sign-in state in PostgreSQL (schema `auth`, created at start-up): what must survive a Redis restart or
 * flush. None of it is derived from the event log, so it is not a read model and a rebuild never touches it.
 *
 * - sessions: one row per sign-in; a token names its session (`sid`), and a revoked or expired session's token is
 *   refused on its next request (requireAuth reads the row with the user's).
 * - challenges: the second step of a sign-in (5 minutes, single use, bound to one user); only a SHA-256 of the
 *   challenge is stored, with the TOTP secret of an enrolment in progress, encrypted.
 * - totp_steps: the newest TOTP time step accepted per user; a code of that step or an older one is refused (no replay).
 * - second_factor_setups: a secret offered by Settings and not yet confirmed, encrypted.
 */
export const AUTH_SCHEMA_SQL = `
CREATE SCHEMA IF NOT EXISTS auth;
CREATE TABLE IF NOT EXISTS auth.sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  device text NOT NULL,
  user_agent text NOT NULL DEFAULT '',
  address text NOT NULL DEFAULT '',
  second_factor boolean NOT NULL DEFAULT false,
  new_device boolean NOT NULL DEFAULT false,
  notice_dismissed_at timestamptz,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_reason text
);
CREATE INDEX IF NOT EXISTS sessions_user_idx ON auth.sessions (user_id, created_at DESC);
CREATE TABLE IF NOT EXISTS auth.challenges (
  id_hash text PRIMARY KEY,
  user_id uuid NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('totp', 'enrol')),
  pending_secret jsonb,
  address text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX IF NOT EXISTS challenges_expires_idx ON auth.challenges (expires_at);
CREATE TABLE IF NOT EXISTS auth.totp_steps (
  user_id uuid PRIMARY KEY,
  last_step bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS auth.second_factor_setups (
  user_id uuid PRIMARY KEY,
  secret jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
`;

const ensured = new WeakMap<pg.Pool, Promise<void>>();

/** Creates the schema when missing (idempotent; concurrent start-ups serialised by an advisory lock); once per pool. */
export function ensureAuthSchema(pool: pg.Pool): Promise<void> {
  let done = ensured.get(pool);
  if (!done) {
    done = createSchema(pool);
    ensured.set(pool, done);
    done.catch(() => ensured.delete(pool));
  }
  return done;
}

async function createSchema(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('bank.auth.schema'))");
    await client.query(AUTH_SCHEMA_SQL);
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('bank.auth.schema'))").catch(() => undefined);
    client.release();
  }
}
