import { describe, expect, it } from 'vitest';
import type { BankEvent } from '../events/eventSchemas';
import { ADMIN_ID, CUSTOMER_ID, NOW, PAYEE_ID, uuid } from '../testing/fixtures';
import { clearingMovesOf, isBalancedEntry, journalEntryOf } from './postingRules';
import { addEntryToTotals, emptyLedgerTotals, totalsFromStored, totalsToStored, trialBalanceOf } from './ledgerTotals';
import { journalLineText } from './journalHash';
import { chartOfAccounts, ledgerAccountOf, ledgerBalance } from './chartOfAccounts';

const TRANSFER = uuid(50);
const payer = { streamId: `account-${CUSTOMER_ID}`, recordedAt: NOW };
const payee = { streamId: `account-${PAYEE_ID}`, recordedAt: NOW };
const money = { transactionId: uuid(60), account: 'savings' as const, amountCents: 2500, description: 'Rent', occurredAt: NOW, balanceAfterCents: 7500 };
const intent = (internal: boolean) => ({
  internal,
  ...(internal ? { payeeId: PAYEE_ID, creditTransactionId: uuid(61) } : {}),
  refundTransactionId: uuid(62),
  accountNumber: '5555555555',
  bankName: 'Other bank',
  routingNumber: '011000015',
  accountType: 'checking' as const,
  recipientName: 'Jane Doe',
  description: 'Rent',
  requestedAt: NOW,
});

function debitOf(internal: boolean): BankEvent {
  return { type: 'AccountDebited', data: { ...money, direction: 'debit', status: 'pending', transferId: TRANSFER, businessDate: '2025-05-31', intent: intent(internal) } };
}

function shortLines(event: BankEvent, source = payer) {
  const entry = journalEntryOf(event, source);
  return entry?.lines.map((line) => `${line.side} ${line.accountKey} ${line.amountCents}`);
}

describe('the posting rules', () => {
  it("debit the payer's control account into the clearing account of the transfer's kind, on the event's business date", () => {
    expect(shortLines(debitOf(true))).toEqual(['debit customer-savings 2500', 'credit transfers-in-transit 2500']);
    expect(shortLines(debitOf(false))).toEqual(['debit customer-savings 2500', 'credit ach-outbound 2500']);
    const entry = journalEntryOf(debitOf(true), payer);
    expect(entry?.businessDate).toBe('2025-05-31');
    expect(entry?.lines[0]).toMatchObject({ customerId: CUSTOMER_ID, accountType: 'savings', transferId: TRANSFER, actorId: CUSTOMER_ID, description: 'Rent' });
    expect(entry?.lines[1]).toMatchObject({ customerId: CUSTOMER_ID, transferId: TRANSFER });
    expect(entry?.lines[1]).not.toHaveProperty('accountType');
  });

  it("empty the clearing account on the payee's credit and on the refund, and move ACH to cash at settlement", () => {
    const credit: BankEvent = { type: 'AccountCredited', data: { ...money, account: 'checking', direction: 'credit', status: 'completed', transferId: TRANSFER } };
    expect(shortLines(credit, payee)).toEqual(['credit customer-checking 2500', 'debit transfers-in-transit 2500']);
    const refund: BankEvent = { type: 'AccountCredited', data: { ...money, direction: 'credit', status: 'completed', transferId: TRANSFER, refundOf: uuid(60), clearing: 'ach-outbound' } };
    expect(shortLines(refund)).toEqual(['credit customer-savings 2500', 'debit ach-outbound 2500']);
    const settled: BankEvent = { type: 'TransferSettled', data: { transferId: TRANSFER, occurredAt: NOW, payerId: CUSTOMER_ID, account: 'savings', amountCents: 2500, businessDate: '2025-06-01' } };
    expect(shortLines(settled, { streamId: `transfer-${TRANSFER}`, recordedAt: NOW })).toEqual(['debit ach-outbound 2500', 'credit cash-at-fed 2500']);
  });

  it("post the admins' edits against staff adjustments and their postings and deletions against staff postings, with the reason", () => {
    const adjusted: BankEvent = {
      type: 'BalanceAdjusted',
      data: { ...money, direction: 'credit', status: 'completed', adminId: ADMIN_ID, reason: 'Branch error', previousCents: 5000, newCents: 7500 },
    };
    const entry = journalEntryOf(adjusted, payer);
    expect(entry?.lines.map((line) => `${line.side} ${line.accountKey}`)).toEqual(['credit customer-savings', 'debit staff-adjustments']);
    expect(entry?.lines.every((line) => line.actorId === ADMIN_ID && line.customerId === CUSTOMER_ID && line.description === 'Balance adjustment: Branch error')).toBe(true);
    const posted: BankEvent = { type: 'StaffTransactionPosted', data: { ...money, direction: 'debit', status: 'completed', adminId: ADMIN_ID, postedAt: NOW, reason: 'Fee refund' } };
    expect(shortLines(posted)).toEqual(['debit customer-savings 2500', 'credit staff-postings 2500']);
    expect(journalEntryOf(posted, payer)?.lines[1]?.description).toBe('Rent (reason: Fee refund)');
    const reversed: BankEvent = { type: 'TransactionReversed', data: { ...money, direction: 'credit', status: 'completed', reversedTransactionId: uuid(70), adminId: ADMIN_ID } };
    expect(shortLines(reversed)).toEqual(['credit customer-savings 2500', 'debit staff-postings 2500']);
  });

  it('give no entry to other events, nor to a settlement recorded before the books (no amount)', () => {
    expect(journalEntryOf({ type: 'TransactionStatusChanged', data: { transactionId: uuid(60), status: 'completed', previousStatus: 'pending', occurredAt: NOW } }, payer)).toBeUndefined();
    expect(journalEntryOf({ type: 'TransferSettled', data: { transferId: TRANSFER, occurredAt: NOW } }, payer)).toBeUndefined();
    expect(journalEntryOf({ type: 'AccountClosed', data: { adminId: ADMIN_ID, closedAt: NOW } }, payer)).toBeUndefined();
  });

  it('date an event without a business date on the UTC day it was recorded', () => {
    const old: BankEvent = { type: 'StaffTransactionPosted', data: { ...money, direction: 'credit', status: 'completed', adminId: ADMIN_ID, postedAt: NOW } };
    expect(journalEntryOf(old, { ...payer, recordedAt: '2024-12-31T23:59:59.000Z' })?.businessDate).toBe('2024-12-31');
  });

  it('open a clearing item on the debit and close it on the credit', () => {
    const opened = journalEntryOf(debitOf(true), payer);
    expect(opened && clearingMovesOf(opened)).toEqual([{ accountKey: 'transfers-in-transit', transferId: TRANSFER, amountCents: 2500, opens: true }]);
    expect(opened && isBalancedEntry(opened)).toBe(true);
    expect(isBalancedEntry({ businessDate: '2025-06-01', lines: [{ accountKey: 'cash-at-fed', side: 'debit', amountCents: 1, description: '' }] })).toBe(false);
  });
});

describe('the totals and the trial balance', () => {
  it('list every account of the chart in code order, balances on each normal side, balanced', () => {
    const totals = emptyLedgerTotals();
    for (const event of [debitOf(true), debitOf(false)]) {
      const entry = journalEntryOf(event, payer);
      if (entry) addEntryToTotals(totals, entry);
    }
    const trial = trialBalanceOf(totals);
    expect(trial.rows.map((row) => row.key)).toEqual(chartOfAccounts.map((account) => account.key));
    expect(trial.rows.find((row) => row.key === 'customer-savings')?.balanceCents).toBe(-5000n);
    expect(trial.rows.find((row) => row.key === 'ach-outbound')?.balanceCents).toBe(2500n);
    expect(trial).toMatchObject({ totalDebitsCents: 5000n, totalCreditsCents: 5000n, balanced: true });
    expect(trialBalanceOf(totalsFromStored(totalsToStored(totals)))).toEqual(trial);
    const cash = ledgerAccountOf('cash-at-fed');
    expect(cash && ledgerBalance(cash, 10n, 3n)).toBe(7n);
  });

  it('hash text changes with any field of a line', () => {
    const entry = journalEntryOf(debitOf(true), payer);
    const line = entry?.lines[0];
    if (!line) throw new Error('no line');
    const text = journalLineText('1', 0, '2025-06-01', line);
    expect(journalLineText('1', 0, '2025-06-01', { ...line, amountCents: 2501 })).not.toBe(text);
    expect(journalLineText('1', 0, '2025-06-01', { ...line, description: 'Rent!' })).not.toBe(text);
    expect(journalLineText('2', 0, '2025-06-01', line)).not.toBe(text);
  });
});
