import { randomBytes } from 'node:crypto';

/**
 * A fresh key for every keyring a production start requires (each `k1:<32 random bytes>`), so that a bench or a
 * fault test runs the bank as production does, with secrets from the environment and none shared between runs.
 */
export function freshBankKeys(): Record<string, string> {
  const key = () => `k1:${randomBytes(32).toString('base64')}`;
  return {
    JWT_KEYS: key(),
    IDEMPOTENCY_KEYS: key(),
    PIN_KEYS: key(),
    TOTP_KEYS: key(),
    CHAIN_KEYS: key(),
    CHECKPOINT_KEYS: key(),
  };
}
