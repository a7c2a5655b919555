import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { transferInput } from '../inputs/transferInput';
import { transferFormProblem, wantsRecipientLookup, type TransferForm } from './transferForm';

const payer = { accountNumber: '1234567890', balancesCents: { savings: 150_000, checking: 25_050 } };
const form = (change: Partial<TransferForm>): TransferForm => ({
  from: 'savings',
  amount: '10',
  accountNumber: '9876543210',
  accountType: 'savings',
  routingNumber: '',
  recipient: 'Alan Turing',
  ...change,
});

/** The API's answer to the amount alone: its schema's message, or null when the schema takes it. */
function apiAmountProblem(amount: string): string | null {
  const parsed = transferInput.safeParse({ from: 'savings', amount });
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'refused');
}

describe('the transfer form’s rules', () => {
  it('words an amount problem exactly as the API’s schema does, for any typed amount', () => {
    const typed = fc.oneof(
      fc.stringMatching(/^-?\d{1,12}(\.\d{0,4})?$/),
      fc.constantFrom('0.99', '1', '1.005', 'ten', '1e3', '-5', '0', '1000000000.01'),
    );
    fc.assert(
      fc.property(typed, (amount) => {
        const fromForm = transferFormProblem(form({ amount, from: 'savings' }), { ...payer, balancesCents: { savings: Number.MAX_SAFE_INTEGER, checking: 0 } });
        expect(fromForm).toBe(apiAmountProblem(amount));
      }),
    );
  });

  it('checks in the API’s order: fill all fields, amount, same account, routing number, account number, balance', () => {
    expect(transferFormProblem(form({ recipient: '' }), payer)).toBe('Please fill all fields');
    expect(transferFormProblem(form({ accountType: '', amount: 'ten' }), payer)).toBe('Please fill all fields');
    expect(transferFormProblem(form({ amount: '0.99', routingNumber: '1' }), payer)).toBe('Amount must be at least 1');
    expect(transferFormProblem(form({ accountNumber: '1234567890', amount: '5000', routingNumber: '123' }), payer)).toBe('You cannot transfer to the same account');
    for (const routingNumber of ['12345678', '123456789', '021000022', '0210000210']) {
      expect(transferFormProblem(form({ routingNumber, accountType: 'checking', amount: '5000' }), payer), routingNumber).toBe('Invalid routing number');
    }
    expect(transferFormProblem(form({ routingNumber: ' 021000021 ', accountType: 'checking', amount: '5000' }), payer)).toBe('You do not have enough balance');
    for (const accountNumber of ['123456789012345678', '12345é']) {
      expect(transferFormProblem(form({ accountNumber, accountType: 'checking', amount: '5000' }), payer), accountNumber).toBe('Invalid account number');
    }
    expect(transferFormProblem(form({ accountNumber: '1234567890', accountType: 'checking', amount: '1,500.01' }), payer)).toBe('You do not have enough balance');
    expect(transferFormProblem(form({ accountNumber: '1234567890', accountType: 'checking', amount: '1,500.00' }), payer)).toBeNull();
  });

  it('looks the recipient up only with a bank name and a whole account number', () => {
    expect(wantsRecipientLookup({ bankName: 'Summit', accountNumber: '123456789' })).toBe(false);
    expect(wantsRecipientLookup({ bankName: ' ', accountNumber: '1234567890' })).toBe(false);
    expect(wantsRecipientLookup({ bankName: 'Summit', accountNumber: ' 1234567890 ' })).toBe(true);
  });
});
