import type { BankEvent } from './eventSchemas';

/** Data fields that hold secrets (hashes, the encrypted TOTP secret, recovery-code hashes); auditors see them masked. */
export const secretFields = ['passwordHash', 'pinHash', 'secret', 'recoveryCodes'] as const;
export const MASK = '***';

/** A copy of the event's data with every secret field replaced by '***'. */
export function maskSecrets(event: Pick<BankEvent, 'type' | 'data'>): Record<string, unknown> {
  const data: Record<string, unknown> = { ...event.data };
  for (const field of secretFields) if (field in data) data[field] = MASK;
  return data;
}
