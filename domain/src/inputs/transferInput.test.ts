import { describe, expect, it } from 'vitest';
import { transferInput } from './transferInput';

const body = { from: 'savings', amount: 25.5, accountNumber: ' 5555555555 ', bankName: 'Summit', routingNumber: '021000021', accountType: 'checking', to: 'Grace', description: 'Dinner', paymentPin: '123456' };
const issues = (input: unknown) => transferInput.safeParse(input).error?.issues.map((i) => [i.path.join('.'), i.message]);

describe('transferInput (400-level shape)', () => {
  it('reads the amount as cents and trims text', () => {
    expect(transferInput.parse(body)).toEqual({
      from: 'savings',
      amountCents: 2550,
      accountNumber: '5555555555',
      bankName: 'Summit',
      routingNumber: '021000021',
      accountType: 'checking',
      to: 'Grace',
      description: 'Dinner',
      paymentPin: '123456',
    });
  });

  it.each([
    ['abc', 'Amount must be a number'],
    [0.5, 'Amount must be at least 1'],
    [0, 'Amount must be at least 1'],
    [-3, 'Amount must not be negative'],
    [1.234, 'Amount must have at most two decimals'],
    ['1e3', 'Amount must be written without an exponent'],
    [1_000_000_000.01, 'Amount must not exceed 1,000,000,000 dollars'],
  ])('refuses the amount %j', (amount, message) => {
    expect(issues({ ...body, amount })).toEqual([['amount', message]]);
  });

  it('refuses an unknown from or accountType', () => {
    expect(issues({ ...body, from: 'gold' })).toEqual([['from', 'From must be savings or checking']]);
    expect(issues({ ...body, accountType: 'gold' })).toEqual([['accountType', 'Account type must be savings or checking']]);
  });

  it.each(['12345', '1234567', 'abcdef', 12345])('refuses the pin %j (not 6 digits)', (paymentPin) => {
    expect(issues({ ...body, paymentPin })).toEqual([['paymentPin', 'Payment pin must be 6 digits']]);
  });

  it('lets missing amount, accountType, accountNumber and pin through for the decider', () => {
    expect(transferInput.parse({ from: 'checking', amount: '', accountType: '', accountNumber: '  ', paymentPin: '' })).toMatchObject({
      from: 'checking',
      amountCents: undefined,
      accountType: undefined,
      accountNumber: undefined,
      paymentPin: undefined,
    });
  });

  it('accepts a pin sent as a 6-digit number', () => {
    expect(transferInput.parse({ ...body, paymentPin: 123456 }).paymentPin).toBe('123456');
  });

  it('requires from', () => {
    expect(issues({ ...body, from: undefined })).toEqual([['from', 'From must be savings or checking']]);
  });
});
