import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { clientAddress, limitAddressOf } from './clientInfo';

const from = (ip: string) => ({ ip, socket: {} }) as unknown as Request;

describe("a client's address", () => {
  it('is shown whole, an IPv4 client of a dual-stack server without its ::ffff: prefix', () => {
    expect(clientAddress(from('::ffff:203.0.113.7'))).toBe('203.0.113.7');
    expect(clientAddress(from('2001:db8:1:2:3:4:5:6'))).toBe('2001:db8:1:2:3:4:5:6');
  });

  it('counts in the failure limits by its /56 over IPv6, so rotating through one allocation is one client', () => {
    expect(limitAddressOf(from('2001:db8:0:ff:1::1'))).toBe(limitAddressOf(from('2001:db8:0:1:ffff:ffff:ffff:ffff')));
    expect(limitAddressOf(from('2001:db8:0:100::1'))).not.toBe(limitAddressOf(from('2001:db8:0:1::1')));
    expect(limitAddressOf(from('203.0.113.7'))).toBe('203.0.113.7');
    expect(limitAddressOf(from('::ffff:203.0.113.7'))).toBe('203.0.113.7');
    expect(limitAddressOf(from('203.0.113.8'))).not.toBe(limitAddressOf(from('203.0.113.7')));
  });
});
