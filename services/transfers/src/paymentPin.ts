import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Keyring } from '@bank/platform';

/**
 * Payment pins are stored as a keyed hash: `pin$<key id>$<hex HMAC-SHA-256(key, "<userId>:<pin>")>`. A 6-digit pin
 * has only 10^6 values, so any unkeyed hash (bcrypt included) falls to a brute force once the database leaks;
 * without the key (held outside the database, see @bank/platform's keyring) the stored value gives nothing away.
 * The user id in the message makes equal pins hash differently. Checking one costs a microsecond, so it runs on
 * the request path without holding the event loop.
 *
 * Pins set before this scheme are bcrypt hashes (`$2a$…`, `$2b$…`): they keep verifying, off the event loop, with
 * the `verifyLegacy` the caller passes, until the pin is next set.
 */
const PREFIX = 'pin';

function mac(key: Buffer, userId: string, pin: string): Buffer {
  return createHmac('sha256', key).update(`${userId}:${pin}`, 'utf8').digest();
}

/** The stored form of a pin, keyed with the keyring's current key. */
export function hashPin(keyring: Keyring, userId: string, pin: string): string {
  return `${PREFIX}$${keyring.current.id}$${mac(keyring.current.key, userId, pin).toString('hex')}`;
}

export function isLegacyPinHash(stored: string): boolean {
  return /^\$2[aby]\$\d{2}\$/.test(stored);
}

export type LegacyPinVerifier = (pin: string, bcryptHash: string) => Promise<boolean>;

/**
 * Whether `pin` matches the stored hash. A keyed hash whose key id is no longer configured cannot be checked: that
 * is a configuration error (a retired key removed too early), reported as such rather than as a wrong pin.
 */
export async function verifyPin(keyring: Keyring, userId: string, pin: string, stored: string, verifyLegacy?: LegacyPinVerifier): Promise<boolean> {
  if (isLegacyPinHash(stored)) {
    if (!verifyLegacy) throw new Error('A bcrypt payment pin needs a legacy verifier');
    return verifyLegacy(pin, stored);
  }
  const [prefix, keyId, hex] = stored.split('$');
  if (prefix !== PREFIX || !keyId || !hex || !/^[0-9a-f]{64}$/.test(hex)) throw new Error('Unrecognised payment pin hash');
  const key = keyring.byId(keyId);
  if (!key) throw new Error(`Payment pin key ${keyId} is not configured (PIN_KEYS must keep retired keys until every pin is set again)`);
  return timingSafeEqual(mac(key, userId, pin), Buffer.from(hex, 'hex'));
}
