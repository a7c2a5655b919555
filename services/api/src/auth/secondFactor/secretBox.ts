import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EncryptedSecret } from '@bank/domain';
import type { Keyring } from '@bank/platform';

/**
 * TOTP secrets at rest: AES-256-GCM with the current key of a keyring held outside the database (TOTP_KEYS), a fresh
 * 96-bit IV per secret, and the user id as additional authenticated data, so a ciphertext copied onto another user's
 * record does not decrypt. The key id is stored beside it: after a rotation (a new key first in TOTP_KEYS, the old
 * one kept after it) old secrets still decrypt, and new ones use the new key.
 */
export function encryptSecret(keys: Keyring, userId: string, secret: string): EncryptedSecret {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv);
  cipher.setAAD(Buffer.from(`totp:${userId}`, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return { keyId: keys.current.id, iv: iv.toString('base64'), ciphertext: ciphertext.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
}

export class SecretKeyMissingError extends Error {
  override readonly name = 'SecretKeyMissingError';
}

/** Decrypts what encryptSecret made for `userId`; throws when the key is gone or anything was altered. */
export function decryptSecret(keys: Keyring, userId: string, sealed: EncryptedSecret): string {
  const key = keys.byId(sealed.keyId);
  if (!key) throw new SecretKeyMissingError(`The key ${sealed.keyId} of a TOTP secret is not in ${keys.source}`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(Buffer.from(`totp:${userId}`, 'utf8'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]).toString('utf8');
}
