import { randomBytes } from 'node:crypto';
import { parseKeyringText } from '@bank/platform';
import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, SecretKeyMissingError } from './secretBox';

const key = () => randomBytes(32).toString('base64');
const USER = '6f1c1e2a-6a55-4b8e-9f7e-0d3c1b2a4e5f';
const OTHER_USER = '0b7a9d4e-2c1f-4e8a-8b6d-5f4e3d2c1b0a';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

describe('TOTP secrets at rest (AES-256-GCM)', () => {
  it('decrypts what it encrypted, and stores no plain text', () => {
    const keys = parseKeyringText('totp', 'TOTP_KEYS', `k1:${key()}`);
    const sealed = encryptSecret(keys, USER, SECRET);
    expect(sealed.keyId).toBe('k1');
    expect(JSON.stringify(sealed)).not.toContain(SECRET);
    expect(Buffer.from(sealed.iv, 'base64')).toHaveLength(12);
    expect(decryptSecret(keys, USER, sealed)).toBe(SECRET);
    // A fresh IV every time: the same secret never gives the same ciphertext.
    expect(encryptSecret(keys, USER, SECRET).ciphertext).not.toBe(sealed.ciphertext);
  });

  it('after a key rotation, reads secrets sealed with the old key and seals new ones with the new key', () => {
    const oldKey = key();
    const before = parseKeyringText('totp', 'TOTP_KEYS', `k1:${oldKey}`);
    const sealedBefore = encryptSecret(before, USER, SECRET);
    const rotated = parseKeyringText('totp', 'TOTP_KEYS', `k2:${key()},k1:${oldKey}`);
    expect(decryptSecret(rotated, USER, sealedBefore)).toBe(SECRET);
    const sealedAfter = encryptSecret(rotated, USER, SECRET);
    expect(sealedAfter.keyId).toBe('k2');
    expect(decryptSecret(rotated, USER, sealedAfter)).toBe(SECRET);
    // Once the old key is retired, what it sealed can no longer be read: the error names the key.
    const retired = parseKeyringText('totp', 'TOTP_KEYS', `k2:${rotated.current.key.toString('base64')}`);
    expect(() => decryptSecret(retired, USER, sealedBefore)).toThrow(SecretKeyMissingError);
    expect(() => decryptSecret(retired, USER, sealedBefore)).toThrow(/k1/);
  });

  it('refuses a tampered ciphertext, a wrong key of the same id, and a secret moved to another user', () => {
    const keys = parseKeyringText('totp', 'TOTP_KEYS', `k1:${key()}`);
    const sealed = encryptSecret(keys, USER, SECRET);
    const flipped = Buffer.from(sealed.ciphertext, 'base64');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() => decryptSecret(keys, USER, { ...sealed, ciphertext: flipped.toString('base64') })).toThrow();
    expect(() => decryptSecret(parseKeyringText('totp', 'TOTP_KEYS', `k1:${key()}`), USER, sealed)).toThrow();
    expect(() => decryptSecret(keys, OTHER_USER, sealed)).toThrow();
  });
});
