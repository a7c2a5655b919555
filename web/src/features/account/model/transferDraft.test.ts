import { describe, expect, it } from 'vitest';
import { parseTypedDollars, wantsRecipientLookup as wantsLookup } from '@bank/domain/forms';
import { emptyTransferDraft, validateTransfer, type TransferDraft } from './transferDraft';

const user = { account: { number: '1234567890', savings: 1500, checking: 250.5 } };
const to = 'Alan Turing';
const draft = (change: Partial<TransferDraft>): TransferDraft => ({
  ...emptyTransferDraft,
  amount: '10',
  accountNumber: '9876543210',
  accountType: 'savings',
  ...change,
});

describe('validateTransfer (design/API.md rules)', () => {
  it('asks for amount, account type, account number and the recipient the lookup found', () => {
    expect(validateTransfer(draft({ amount: '' }), user, 'Alan Turing')).toBe('Please fill all fields');
    expect(validateTransfer(draft({ accountType: '' }), user, 'Alan Turing')).toBe('Please fill all fields');
    expect(validateTransfer(draft({ accountNumber: '  ' }), user, 'Alan Turing')).toBe('Please fill all fields');
    expect(validateTransfer(draft({}), user, '')).toBe('Please fill all fields');
    expect(validateTransfer(draft({}), user, '  ')).toBe('Please fill all fields');
    expect(validateTransfer(draft({}), user, 'Alan Turing')).toBeNull();
  });

  it('asks for the recipient before the other checks', () => {
    expect(validateTransfer(draft({ amount: '0.5' }), user, '')).toBe('Please fill all fields');
    expect(validateTransfer(draft({ accountNumber: '1234567890', from: 'savings', accountType: 'savings' }), user, '')).toBe('Please fill all fields');
    expect(validateTransfer(draft({ amount: '999999' }), user, '')).toBe('Please fill all fields');
  });

  it('wants an amount of at least 1 with at most two decimals', () => {
    expect(validateTransfer(draft({ amount: '0.99' }), user, to)).toBe('Amount must be at least 1');
    expect(validateTransfer(draft({ amount: '1.005' }), user, to)).toBe('Amount must have at most two decimals');
    expect(validateTransfer(draft({ amount: 'ten' }), user, to)).toBe('Amount must be a number');
    expect(validateTransfer(draft({ amount: '1' }), user, to)).toBeNull();
  });

  it('wants a routing number that passes the ABA check digit when one is given', () => {
    expect(validateTransfer(draft({ routingNumber: '12345678' }), user, to)).toBe('Invalid routing number');
    expect(validateTransfer(draft({ routingNumber: '123456789' }), user, to)).toBe('Invalid routing number');
    expect(validateTransfer(draft({ routingNumber: '021000021' }), user, to)).toBeNull();
  });

  it('refuses the same account number with the same account type, but allows savings → own checking', () => {
    expect(validateTransfer(draft({ accountNumber: '1234567890', from: 'savings', accountType: 'savings' }), user, to)).toBe(
      'You cannot transfer to the same account',
    );
    expect(validateTransfer(draft({ accountNumber: '1234567890', from: 'savings', accountType: 'checking' }), user, to)).toBeNull();
  });

  it('checks the balance of the `from` account (not the account type)', () => {
    expect(validateTransfer(draft({ from: 'checking', accountType: 'savings', amount: '250.51' }), user, to)).toBe('You do not have enough balance');
    expect(validateTransfer(draft({ from: 'checking', accountType: 'savings', amount: '250.50' }), user, to)).toBeNull();
    expect(validateTransfer(draft({ from: 'savings', accountType: 'checking', amount: '1000' }), user, to)).toBeNull();
  });
});

describe('wantsLookup', () => {
  it('needs a bank name and more than 9 digits', () => {
    expect(wantsLookup({ bankName: 'Summit', accountNumber: '123456789' })).toBe(false);
    expect(wantsLookup({ bankName: '', accountNumber: '1234567890' })).toBe(false);
    expect(wantsLookup({ bankName: 'Summit', accountNumber: '1234567890' })).toBe(true);
  });
});

describe('parseTypedDollars', () => {
  it('turns dollars into integer cents without rounding errors', () => {
    expect(parseTypedDollars('0.29')).toEqual({ ok: true, cents: 29 });
    expect(parseTypedDollars('1,250.5')).toEqual({ ok: true, cents: 125050 });
    expect(parseTypedDollars('19.99')).toEqual({ ok: true, cents: 1999 });
    expect(parseTypedDollars('-5').ok).toBe(false);
  });
});
