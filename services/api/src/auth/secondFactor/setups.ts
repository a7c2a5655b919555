import type { EncryptedSecret } from '@bank/domain';
import type { AppDeps } from '../../appDeps';
import { ensureAuthSchema } from '../authSchema';

/**
 * A secret offered from Settings (POST /auth/second-factor/setup) and waiting for its confirming code, encrypted
 * (auth.second_factor_setups, one per user: a new set-up replaces it). It is usable for 15 minutes.
 */
export const SETUP_TTL_MS = 15 * 60_000;

type Deps = Pick<AppDeps, 'pool' | 'now'>;
const now = (deps: Pick<AppDeps, 'now'>) => deps.now?.() ?? new Date();

export async function saveSetup(deps: Deps, userId: string, secret: EncryptedSecret): Promise<void> {
  await ensureAuthSchema(deps.pool);
  await deps.pool.query(
    `INSERT INTO auth.second_factor_setups (user_id, secret, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, created_at = EXCLUDED.created_at`,
    [userId, JSON.stringify(secret), now(deps)],
  );
}

export async function findSetup(deps: Deps, userId: string): Promise<EncryptedSecret | undefined> {
  await ensureAuthSchema(deps.pool);
  const { rows } = await deps.pool.query<{ secret: EncryptedSecret }>(
    `SELECT secret FROM auth.second_factor_setups WHERE user_id = $1 AND created_at > $2`,
    [userId, new Date(now(deps).getTime() - SETUP_TTL_MS)],
  );
  return rows[0]?.secret;
}

export async function deleteSetup(deps: Deps, userId: string): Promise<void> {
  await deps.pool.query('DELETE FROM auth.second_factor_setups WHERE user_id = $1', [userId]);
}
