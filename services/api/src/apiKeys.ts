import { ConfigError, loadKeyring, type Config, type Keyring, type Logger } from '@bank/platform';

/**
 * The API's keys, held outside the database (see @bank/platform's keyring): the JWT signing keys, and the key of
 * the idempotency records' request fingerprints. Each keyring has a current key (used for everything new) and may
 * keep older ones, so that tokens and records made with them still verify during a rotation.
 */
export interface ApiKeys {
  /** HS256 signing keys; a token names its key in the `kid` header. */
  readonly jwt: Keyring;
  /** HMAC key of the idempotency fingerprints (a record names its key id). */
  readonly idempotency: Keyring;
}

export const JWT_KEYS_VARIABLE = 'JWT_KEYS';
export const IDEMPOTENCY_KEYS_VARIABLE = 'IDEMPOTENCY_KEYS';
/** The key id of a token signed with the single JWT_SECRET. */
export const JWT_SECRET_KEY_ID = 'secret';

type KeyConfig = Pick<Config, 'NODE_ENV' | 'DATA_DIR' | 'JWT_SECRET'>;

function singleKey(name: string, source: string, id: string, key: Buffer): Keyring {
  return { name, source, current: { id, key }, byId: (wanted) => (wanted === id ? key : undefined) };
}

/**
 * Loads the keys, from the environment first: `JWT_KEYS` (`id:base64[,id:base64…]`, at least 32 bytes each, the
 * first signs) or the single `JWT_SECRET`; `IDEMPOTENCY_KEYS` in the same form as JWT_KEYS. Outside production a
 * missing keyring is generated once into `<DATA_DIR>/keys/<name>.json` (mode 0600), which the log says; in
 * production a missing one stops start-up with a ConfigError naming the variable.
 */
export function loadApiKeys(config: KeyConfig, env: Record<string, string | undefined>, logger?: Logger): ApiKeys {
  const production = config.NODE_ENV === 'production';
  const onCreated = (variable: string) => (file: string) =>
    logger?.warn({ file }, `Created a new key file ${file} (mode 0600) because ${variable} is not set; production requires ${variable} from the environment`);
  const jwtKeysText = env[JWT_KEYS_VARIABLE]?.trim();
  if (jwtKeysText && config.JWT_SECRET) throw new ConfigError(`Invalid configuration:\n  ${JWT_KEYS_VARIABLE}, JWT_SECRET: set one of them, not both`);
  if (production && !jwtKeysText && !config.JWT_SECRET) {
    const missing = [`${JWT_KEYS_VARIABLE} (or JWT_SECRET)`, ...(env[IDEMPOTENCY_KEYS_VARIABLE]?.trim() ? [] : [IDEMPOTENCY_KEYS_VARIABLE])];
    throw new ConfigError(`Invalid configuration:\n${missing.map((name) => `  ${name}: required in production (id:base64key, at least 32 bytes)`).join('\n')}`);
  }
  const jwt = config.JWT_SECRET
    ? singleKey('jwt', 'JWT_SECRET', JWT_SECRET_KEY_ID, Buffer.from(config.JWT_SECRET, 'utf8'))
    : loadKeyring({ name: 'jwt', envVar: JWT_KEYS_VARIABLE, env, dataDir: config.DATA_DIR, production, onCreated: onCreated(JWT_KEYS_VARIABLE) });
  const idempotency = loadKeyring({
    name: 'idempotency',
    envVar: IDEMPOTENCY_KEYS_VARIABLE,
    env,
    dataDir: config.DATA_DIR,
    production,
    onCreated: onCreated(IDEMPOTENCY_KEYS_VARIABLE),
  });
  return { jwt, idempotency };
}
