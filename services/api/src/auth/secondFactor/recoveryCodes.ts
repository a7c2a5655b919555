import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { RECOVERY_CODE_COUNT, type RecoveryCodeHash } from '@bank/domain';
import type { Keyring } from '@bank/platform';

/**
 * Recovery codes: 16 characters of the base32 alphabet (80 random bits), shown once as XXXX-XXXX-XXXX-XXXX and
 * stored only as HMAC-SHA-256 under a key of the TOTP keyring (outside the database), bound to the user: a copy of
 * the event log alone does not let anyone test guesses offline.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const CODE_LENGTH = 16;

function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return code.match(/.{4}/g)?.join('-') ?? code;
}

/** Ten fresh codes, formatted for people. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
}

/** A code as typed (dashes, spaces, lower case) → its canonical form. */
export function normalizeRecoveryCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toUpperCase();
}

function digest(key: Buffer, userId: string, code: string): Buffer {
  return createHmac('sha256', key).update(`recovery:${userId}:${normalizeRecoveryCode(code)}`).digest();
}

export function hashRecoveryCode(keys: Keyring, userId: string, code: string): RecoveryCodeHash {
  return { keyId: keys.current.id, hash: digest(keys.current.key, userId, code).toString('base64') };
}

/** The position of the stored hash `code` matches (used or not: the domain refuses a used one), or null. */
export function matchRecoveryCode(keys: Keyring, userId: string, code: string, stored: readonly RecoveryCodeHash[]): number | null {
  let found: number | null = null;
  stored.forEach((entry, index) => {
    const key = keys.byId(entry.keyId);
    if (!key) return;
    const expected = Buffer.from(entry.hash, 'base64');
    const actual = digest(key, userId, code);
    if (expected.length === actual.length && timingSafeEqual(expected, actual) && found === null) found = index;
  });
  return found;
}
