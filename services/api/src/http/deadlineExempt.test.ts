import { describe, expect, it } from 'vitest';
import { deadlineExempt } from './deadlineExempt';

const request = (method: string, path: string, query: Record<string, string> = {}) => ({ method, path, query });

describe('the requests the deadline leaves alone', () => {
  it('long work an operator starts: the business-date advance, the ACH cycle, audit replays', () => {
    expect(deadlineExempt(request('POST', '/admin/business-date/advance'))).toBe(true);
    expect(deadlineExempt(request('POST', '/admin/ach/files'))).toBe(true);
    expect(deadlineExempt(request('POST', '/admin/ach/returns'))).toBe(true);
    expect(deadlineExempt(request('GET', '/audit/ledger/trial-balance'))).toBe(true);
  });

  it('downloads, which stream as they are written', () => {
    expect(deadlineExempt(request('GET', '/statements', { format: 'pdf' }))).toBe(true);
    expect(deadlineExempt(request('GET', '/interest', { format: 'pdf' }))).toBe(true);
  });

  it('everything else a customer or an admin does keeps the deadline', () => {
    expect(deadlineExempt(request('POST', '/transaction/transfer'))).toBe(false);
    expect(deadlineExempt(request('GET', '/interest'))).toBe(false);
    expect(deadlineExempt(request('GET', '/admin/business-date'))).toBe(false);
    expect(deadlineExempt(request('PUT', '/admin/rates'))).toBe(false);
  });
});
