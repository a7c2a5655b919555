import { describe, expect, it } from 'vitest';
import { deterministicId } from './deterministicId';

describe('deterministicId', () => {
  it('is a version 5 UUID, stable for the same name', () => {
    const id = deterministicId('transfer-1:debit');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deterministicId('transfer-1:debit')).toBe(id);
  });
  it('differs for different names', () => {
    expect(deterministicId('a')).not.toBe(deterministicId('b'));
  });
  it('matches the RFC 4122 test vector for the DNS namespace', () => {
    expect(deterministicId('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });
});
