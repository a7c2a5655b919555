import { loadApiKeys, loadAuthSettings, type ApiKeys, type AuthSettings } from '@bank/api';
import { loadChainKeys } from '@bank/commands';
import { loadCheckpointKeys } from '@bank/integrity';
import { ConfigError, loadKeyring, type Config, type Keyring, type Logger } from '@bank/platform';
import type { BankRoles } from './startBank';

export interface BankKeys {
  readonly apiKeys: ApiKeys | undefined;
  readonly authSettings: AuthSettings | undefined;
  readonly pinKeys: Keyring;
  readonly chainKeys: Keyring;
  readonly checkpointKeys: Keyring | undefined;
}

const PREFIX = 'Invalid configuration:\n';

/**
 * Every key and secret setting the roles need, loaded before anything connects: in production each must come from
 * the environment; elsewhere a missing one is created once in DATA_DIR (and the log says so). A start missing several
 * names them all in one error, so an operator fixes the environment once rather than once per variable.
 */
export function loadBankKeys(config: Config, env: Record<string, string | undefined>, logger: Logger, roles: BankRoles): BankKeys {
  const problems: string[] = [];
  function attempt<T>(load: () => T): T | undefined {
    try {
      return load();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message.startsWith(PREFIX) ? error.message.slice(PREFIX.length) : `  ${error.message}`);
      return undefined;
    }
  }
  const apiKeys = roles.api ? attempt(() => loadApiKeys(config, env, logger)) : undefined;
  const authSettings = roles.api ? attempt(() => loadAuthSettings(config, env, logger)) : undefined;
  const pinKeys = attempt(() =>
    loadKeyring({
      name: 'pin',
      envVar: 'PIN_KEYS',
      env,
      dataDir: config.DATA_DIR,
      production: config.NODE_ENV === 'production',
      onCreated: (file) => logger.warn({ file }, 'No PIN_KEYS set: created a payment-pin key for this machine (set PIN_KEYS in production)'),
    }),
  );
  // The event log's tamper evidence (docs/audit.md): every process keys the chain of what it appends; the worker
  // signs the checkpoints, the API verifies them.
  const chainKeys = attempt(() => loadChainKeys(config, env, logger));
  const checkpointKeys = roles.api || roles.worker ? attempt(() => loadCheckpointKeys(config, env, logger)) : undefined;
  if (problems.length > 0) throw new ConfigError(`${PREFIX}${problems.join('\n')}`);
  return { apiKeys, authSettings, pinKeys: pinKeys!, chainKeys: chainKeys!, checkpointKeys };
}
