import { describe, expect, it } from 'vitest';
import { achEntryProblem, fitsAchAccountNumber } from './achEntryFields';

describe('what an ACH entry can hold', () => {
  it('an account number of 1 to 17 printable ASCII characters, once trimmed', () => {
    for (const accountNumber of ['1', '4000123456', '12345678901234567', ' 12345678901234567 ', 'AB-12 34/5']) expect(fitsAchAccountNumber(accountNumber), accountNumber).toBe(true);
    for (const accountNumber of ['', '   ', '123456789012345678', '12345é', 'ｆｕｌｌ', '12\t34', '4000\u00a0123']) expect(fitsAchAccountNumber(accountNumber), accountNumber).toBe(false);
  });

  it('a routing number that passes the check digit, checked first', () => {
    expect(achEntryProblem({ routingNumber: '021000021', accountNumber: '4000123456' })).toBeUndefined();
    expect(achEntryProblem({ routingNumber: '', accountNumber: '4000123456' })).toBe('invalid_routing_number');
    expect(achEntryProblem({ routingNumber: '021000022', accountNumber: '123456789012345678' })).toBe('invalid_routing_number');
    expect(achEntryProblem({ routingNumber: '021000021', accountNumber: '123456789012345678' })).toBe('invalid_external_account');
  });
});
