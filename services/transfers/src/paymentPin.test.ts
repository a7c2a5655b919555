import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { parseKeyringText } from '@bank/platform';
import { hashPin, isLegacyPinHash, verifyPin } from './paymentPin';

const key = (byte: number) => Buffer.alloc(32, byte).toString('base64');
const ring = parseKeyringText('pin', 'PIN_KEYS', `k1:${key(1)}`);
const rotated = parseKeyringText('pin', 'PIN_KEYS', `k2:${key(2)},k1:${key(1)}`);
const USER = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';

describe('payment pins as keyed hashes', () => {
  it('verifies the right pin and refuses a wrong one', async () => {
    const stored = hashPin(ring, USER, '123456');
    expect(stored).toMatch(/^pin\$k1\$[0-9a-f]{64}$/);
    expect(await verifyPin(ring, USER, '123456', stored)).toBe(true);
    expect(await verifyPin(ring, USER, '123457', stored)).toBe(false);
  });

  it('hashes the same pin differently for two customers, and under two keys', () => {
    expect(hashPin(ring, USER, '123456')).not.toBe(hashPin(ring, OTHER, '123456'));
    expect(hashPin(rotated, USER, '123456')).not.toBe(hashPin(ring, USER, '123456'));
  });

  it('keeps verifying pins hashed with a retired key while it is configured, and says so when it is not', async () => {
    const old = hashPin(ring, USER, '123456');
    expect(await verifyPin(rotated, USER, '123456', old)).toBe(true);
    expect(hashPin(rotated, USER, '123456')).toMatch(/^pin\$k2\$/);
    const onlyNew = parseKeyringText('pin', 'PIN_KEYS', `k2:${key(2)}`);
    await expect(verifyPin(onlyNew, USER, '123456', old)).rejects.toThrow(/key k1 is not configured/);
  });

  it('checks a bcrypt pin set before the keyed scheme with the legacy verifier', async () => {
    const legacy = await bcrypt.hash('123456', 4);
    expect(isLegacyPinHash(legacy)).toBe(true);
    const verifyLegacy = (pin: string, hash: string) => bcrypt.compare(pin, hash);
    expect(await verifyPin(ring, USER, '123456', legacy, verifyLegacy)).toBe(true);
    expect(await verifyPin(ring, USER, '654321', legacy, verifyLegacy)).toBe(false);
  });
});
