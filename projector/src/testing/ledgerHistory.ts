import { bankEvent } from '@bank/domain';
import { testId, type StreamEvent } from './recordedEvents';
import { at, ids, sampleHistory } from './sampleHistory';

/** Ids the ledger history adds to the sample history's. */
export const ledgerIds = {
  settledTransfer: testId(801),
  settledDebit: testId(802),
  settledRefund: testId(803),
  inFlightTransfer: testId(811),
  inFlightDebit: testId(812),
  inFlightCredit: testId(813),
  inFlightRefund: testId(814),
  earlyTransfer: testId(821),
  earlyDebit: testId(822),
  earlyCredit: testId(823),
} as const;

const BUSINESS_DATE = '2025-06-01';

/**
 * The sample history (internal transfer credited, external transfer failed and refunded, an admin's balance edit
 * with a reason, staff postings and a reversal) and, for the books: an external transfer settled, an internal
 * transfer debited and not yet credited (an open clearing item), an internal transfer whose payee's credit is in
 * the log before the payer's debit (as a generated bank writes them; it leaves no item), the business calendar's
 * start (a day close is added by the test, dayClosed).
 * Final balances: Ada savings 96,200 (98,000 less 1,000 settled, 500 in flight and 300 to Bob); Bob checking 2,300.
 */
export function ledgerHistory(): StreamEvent[] {
  const adaAccount = `account-${ids.ada}`;
  const settled = `transfer-${ledgerIds.settledTransfer}`;
  const inFlight = `transfer-${ledgerIds.inFlightTransfer}`;
  return [
    { stream: 'businessDays', event: bankEvent('BusinessCalendarStarted', { firstDate: BUSINESS_DATE, mode: 'manual', startedAt: at(0) }) },
    ...sampleHistory(),
    {
      stream: settled,
      event: bankEvent('TransferRequested', {
        transferId: ledgerIds.settledTransfer,
        payerId: ids.ada,
        from: 'savings',
        amountCents: 1_000,
        accountNumber: '7777777777',
        bankName: 'Other Bank',
        routingNumber: '121000358',
        accountType: 'checking',
        recipientName: 'Carol',
        description: 'Books',
        internal: false,
        requestedAt: at(40),
        debitTransactionId: ledgerIds.settledDebit,
        refundTransactionId: ledgerIds.settledRefund,
      }),
    },
    {
      stream: adaAccount,
      event: bankEvent('AccountDebited', {
        transactionId: ledgerIds.settledDebit,
        account: 'savings',
        amountCents: 1_000,
        direction: 'debit',
        description: 'Books',
        transferId: ledgerIds.settledTransfer,
        status: 'pending',
        occurredAt: at(40),
        balanceAfterCents: 97_000,
        businessDate: BUSINESS_DATE,
        // The intent says external: the money waits in ach-outbound until settled.
        intent: {
          internal: false,
          refundTransactionId: ledgerIds.settledRefund,
          accountNumber: '7777777777',
          bankName: 'Other Bank',
          routingNumber: '121000358',
          accountType: 'checking',
          recipientName: 'Carol',
          description: 'Books',
          requestedAt: at(40),
        },
      }),
    },
    { stream: settled, event: bankEvent('TransferDebited', { transferId: ledgerIds.settledTransfer, transactionId: ledgerIds.settledDebit, account: 'savings', amountCents: 1_000, occurredAt: at(40) }) },
    { stream: settled, event: bankEvent('TransferSent', { transferId: ledgerIds.settledTransfer, occurredAt: at(41) }) },
    {
      stream: settled,
      event: bankEvent('TransferSettled', { transferId: ledgerIds.settledTransfer, occurredAt: at(42), payerId: ids.ada, account: 'savings', amountCents: 1_000, businessDate: BUSINESS_DATE }),
    },
    {
      stream: inFlight,
      event: bankEvent('TransferRequested', {
        transferId: ledgerIds.inFlightTransfer,
        payerId: ids.ada,
        from: 'savings',
        amountCents: 500,
        accountNumber: '5555555555',
        bankName: 'Our Bank',
        routingNumber: '011000015',
        accountType: 'checking',
        recipientName: 'Bob Tester',
        description: 'Lunch',
        internal: true,
        payeeId: ids.bob,
        requestedAt: at(43),
        debitTransactionId: ledgerIds.inFlightDebit,
        creditTransactionId: ledgerIds.inFlightCredit,
        refundTransactionId: ledgerIds.inFlightRefund,
      }),
    },
    {
      stream: adaAccount,
      event: bankEvent('AccountDebited', {
        transactionId: ledgerIds.inFlightDebit,
        account: 'savings',
        amountCents: 500,
        direction: 'debit',
        // What COPY's text format must escape (the rebuild's COPY and the live statement give the same line).
        description: 'Lunch\twith "Bob"\\ \nand {Eve}, é',
        transferId: ledgerIds.inFlightTransfer,
        status: 'pending',
        occurredAt: at(43),
        balanceAfterCents: 96_500,
        businessDate: BUSINESS_DATE,
      }),
    },
    {
      stream: `account-${ids.bob}`,
      event: bankEvent('AccountCredited', {
        transactionId: ledgerIds.earlyCredit,
        account: 'checking',
        amountCents: 300,
        direction: 'credit',
        description: 'Coffee',
        transferId: ledgerIds.earlyTransfer,
        status: 'completed',
        occurredAt: at(44),
        balanceAfterCents: 2_300,
      }),
    },
    {
      stream: adaAccount,
      event: bankEvent('AccountDebited', {
        transactionId: ledgerIds.earlyDebit,
        account: 'savings',
        amountCents: 300,
        direction: 'debit',
        description: 'Coffee',
        transferId: ledgerIds.earlyTransfer,
        status: 'completed',
        occurredAt: at(44),
        balanceAfterCents: 96_200,
      }),
    },
  ];
}

/** A day close as the COB would record it, for a history's books (the values only need to be what the log says). */
export function dayClosed(throughPosition: string, lineCount: number, totals: { key: string; debitsCents: string; creditsCents: string }[]): StreamEvent {
  const sum = (side: 'debitsCents' | 'creditsCents') => totals.reduce((total, row) => total + BigInt(row[side]), 0n).toString();
  return {
    stream: 'businessDays',
    event: bankEvent('BusinessDayClosed', {
      businessDate: BUSINESS_DATE,
      closedAt: at(50),
      throughPosition,
      accounts: totals,
      totalDebitsCents: sum('debitsCents'),
      totalCreditsCents: sum('creditsCents'),
      balanced: sum('debitsCents') === sum('creditsCents'),
      journalHash: 'f'.repeat(64),
      lineCount,
    }),
  };
}
