import { ConfigError, loadKeyring, type Config, type Keyring, type Logger } from '@bank/platform';
import { z } from 'zod';
import type { AppDeps } from '../appDeps';

/**
 * The API's sign-in settings on top of @bank/platform's Config, read once at start-up:
 *   STAFF_SECOND_FACTOR  required (default): admins and auditors must have a TOTP second factor, and are led through
 *                        enrolment at sign-in; optional: for local development only, refused when NODE_ENV=production.
 *   TOTP_KEYS            id:base64key[,id:base64key…] (32-byte keys, the first is current): encrypts TOTP secrets at
 *                        rest and keys the recovery-code hashes. Outside production, when unset, a key file is
 *                        created in DATA_DIR/keys/totp.json (see @bank/platform's keyring).
 */
export interface AuthSettings {
  readonly staffSecondFactor: 'required' | 'optional';
  readonly secondFactorKeys: Keyring;
}

export const STAFF_SECOND_FACTOR_MODES = ['required', 'optional'] as const;

const schema = z.object({ STAFF_SECOND_FACTOR: z.enum(STAFF_SECOND_FACTOR_MODES).default('required') });

export function loadAuthSettings(config: Pick<Config, 'NODE_ENV' | 'DATA_DIR'>, env: Record<string, string | undefined>, logger?: Logger): AuthSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(`Invalid configuration:\n${parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n')}`);
  }
  const staffSecondFactor = parsed.data.STAFF_SECOND_FACTOR;
  const production = config.NODE_ENV === 'production';
  if (production && staffSecondFactor === 'optional') {
    throw new ConfigError('Invalid configuration:\n  STAFF_SECOND_FACTOR: optional is for local development only and is refused when NODE_ENV=production');
  }
  const secondFactorKeys = loadKeyring({
    name: 'totp',
    envVar: 'TOTP_KEYS',
    env,
    dataDir: config.DATA_DIR,
    production,
    onCreated: (file) => logger?.warn({ file }, 'Created a development key for TOTP secrets; set TOTP_KEYS in production'),
  });
  return { staffSecondFactor, secondFactorKeys };
}

/** The deps' sign-in settings (loaded once by the composition root: runtime/startBank.ts, or a test harness). */
export function authSettingsOf(deps: Pick<AppDeps, 'auth'>): AuthSettings {
  return deps.auth;
}
