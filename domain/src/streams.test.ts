import { describe, expect, it } from 'vitest';
import { parseStreamName, streams } from './streams';

describe('stream names', () => {
  it('follow the conventions', () => {
    expect(streams.customer('u1')).toBe('customer-u1');
    expect(streams.account('u1')).toBe('account-u1');
    expect(streams.transfer('t1')).toBe('transfer-t1');
    expect(streams.beneficiaries()).toBe('beneficiaries');
    expect(streams.contact('c1')).toBe('contact-c1');
    expect(streams.email(' Ada@Example.COM ')).toBe('email-ada@example.com');
    expect(streams.accountNumber('1234567890')).toBe('accountnumber-1234567890');
    expect(streams.standingOrder('o1')).toBe('standingOrder-o1');
  });

  it('parse back to category and id', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    expect(parseStreamName(streams.customer(id))).toEqual({ category: 'customer', id });
    expect(parseStreamName(streams.email('a-b@c.io'))).toEqual({ category: 'email', id: 'a-b@c.io' });
    expect(parseStreamName(streams.standingOrder(id))).toEqual({ category: 'standingOrder', id });
    expect(parseStreamName('beneficiaries')).toEqual({ category: 'beneficiaries', id: '' });
    expect(parseStreamName('beneficiaries-x')).toBeUndefined();
    expect(parseStreamName('other-x')).toBeUndefined();
    expect(parseStreamName('customer-')).toBeUndefined();
  });
});
