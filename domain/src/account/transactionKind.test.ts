import { describe, expect, it } from 'vitest';
import type { MoneyEvent } from './accountDecider';
import { transactionKindOf } from './transactionKind';

function event(type: MoneyEvent['type'], data: Record<string, unknown>): MoneyEvent {
  return { type, data } as unknown as MoneyEvent;
}

describe('transactionKindOf', () => {
  it('names a transfer leg, a credit or debit with no transfer, a refund, and the staff kinds', () => {
    expect(transactionKindOf(event('AccountDebited', { transferId: 't' }))).toBe('transfer');
    expect(transactionKindOf(event('AccountCredited', { transferId: 't' }))).toBe('transfer');
    expect(transactionKindOf(event('AccountCredited', {}))).toBe('credit');
    expect(transactionKindOf(event('AccountDebited', {}))).toBe('debit');
    expect(transactionKindOf(event('AccountCredited', { transferId: 't', refundOf: 'x' }))).toBe('refund');
    expect(transactionKindOf(event('BalanceAdjusted', {}))).toBe('adjustment');
    expect(transactionKindOf(event('StaffTransactionPosted', {}))).toBe('staff');
    expect(transactionKindOf(event('TransactionReversed', {}))).toBe('reversal');
  });
});
