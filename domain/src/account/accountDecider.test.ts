import { describe, expect, it } from 'vitest';
import { foldEvents } from '../decider';
import { deciderSpecification, refused } from '../testing/deciderSpecification';
import { ADMIN_ID, CUSTOMER_ID, funded, LATER, NOW, opened, uuid } from '../testing/fixtures';
import { MAX_BALANCE_CENTS } from '../money';
import type { AccountEvent } from './accountDecider';
import { accountDecider } from './accountDecider';
import { emptyAccountHistory, evolveAccountHistory, transactionsOf } from './accountHistory';

const { given } = deciderSpecification(accountDecider);
const TX = uuid(500);
const TRANSFER = uuid(600);
const closedAccount: AccountEvent = { type: 'AccountClosed', data: { adminId: ADMIN_ID, closedAt: NOW } };
const stateOf = (events: AccountEvent[]) => foldEvents(accountDecider.evolve, accountDecider.initialState, events);

describe('opening the account', () => {
  it('opens with both balances at zero', () => {
    given([]).when({ type: 'OpenAccount', userId: CUSTOMER_ID, accountNumber: '1234567890', now: NOW }).then([opened()]);
    expect(stateOf([opened()])).toMatchObject({ status: 'open', balances: { savings: 0, checking: 0 } });
  });

  it('refuses to open twice', () => {
    given([opened()]).when({ type: 'OpenAccount', userId: CUSTOMER_ID, accountNumber: '1234567890', now: NOW }).then(refused('already_exists', 'Account already opened'));
  });

  it('refuses money commands before opening', () => {
    given([])
      .when({ type: 'PostStaffTransaction', transactionId: TX, adminId: ADMIN_ID, account: 'savings', direction: 'credit', amountCents: 100, date: '2025-05-01', description: 'x', now: NOW })
      .then(refused('not_found', 'Account not found'));
  });
});

describe('a transfer debit', () => {
  const debit = { type: 'DebitForTransfer', transactionId: TX, transferId: TRANSFER, account: 'savings', amountCents: 2500, description: 'Rent', now: NOW } as const;

  it('is pending and holds the funds at once', () => {
    given([opened(), funded('savings', 10000, 10000)])
      .when(debit)
      .then([
        {
          type: 'AccountDebited',
          data: { transactionId: TX, account: 'savings', amountCents: 2500, direction: 'debit', description: 'Rent', transferId: TRANSFER, status: 'pending', occurredAt: NOW, balanceAfterCents: 7500, businessDate: '2025-06-01' },
        },
      ]);
  });

  it('may take the whole balance', () => {
    expect(given([opened(), funded('savings', 2500, 2500)]).when(debit).decision()[0]?.data).toMatchObject({ balanceAfterCents: 0 });
  });

  it('refuses to go below zero', () => {
    given([opened(), funded('savings', 2499, 2499)]).when(debit).then(refused('insufficient_balance', 'You do not have enough balance'));
  });

  it('checks the balance of its own account kind only', () => {
    given([opened(), funded('checking', 10000, 10000)]).when(debit).then(refused('insufficient_balance', 'You do not have enough balance'));
  });

  it('is recorded once per transaction id', () => {
    const events = [opened(), funded('savings', 10000, 10000), ...accountDecider.decide(debit, stateOf([opened(), funded('savings', 10000, 10000)]))];
    given(events).when(debit).then([]);
  });

  it('refuses an amount that is not a positive integer of cents', () => {
    given([opened(), funded('savings', 10000, 10000)]).when({ ...debit, amountCents: 0 }).then(refused('invalid_amount', 'Amount must be a positive number of cents'));
    given([opened(), funded('savings', 10000, 10000)]).when({ ...debit, amountCents: 1.5 }).then(refused('invalid_amount', 'Amount must be a positive number of cents'));
  });
});

describe('transaction status', () => {
  const pendingDebit: AccountEvent = {
    type: 'AccountDebited',
    data: { transactionId: TX, account: 'savings', amountCents: 2500, direction: 'debit', description: 'Rent', transferId: TRANSFER, status: 'pending', occurredAt: NOW, balanceAfterCents: 7500 },
  };
  const history = [opened(), funded('savings', 10000, 10000), pendingDebit];

  it.each(['completed', 'failed'] as const)('moves a pending transaction to %s', (status) => {
    given(history)
      .when({ type: 'SetTransactionStatus', transactionId: TX, status, now: LATER })
      .then([{ type: 'TransactionStatusChanged', data: { transactionId: TX, status, previousStatus: 'pending', transferId: TRANSFER, occurredAt: LATER } }]);
  });

  it('does not change the balance by itself', () => {
    const state = stateOf([...history, { type: 'TransactionStatusChanged', data: { transactionId: TX, status: 'failed', previousStatus: 'pending', transferId: TRANSFER, occurredAt: LATER } }]);
    expect(state).toMatchObject({ balances: { savings: 7500 } });
  });

  it('records nothing for the same status again', () => {
    const done: AccountEvent = { type: 'TransactionStatusChanged', data: { transactionId: TX, status: 'completed', previousStatus: 'pending', transferId: TRANSFER, occurredAt: LATER } };
    given([...history, done]).when({ type: 'SetTransactionStatus', transactionId: TX, status: 'completed', now: LATER }).then([]);
  });

  it('refuses to change a final status', () => {
    const done: AccountEvent = { type: 'TransactionStatusChanged', data: { transactionId: TX, status: 'completed', previousStatus: 'pending', transferId: TRANSFER, occurredAt: LATER } };
    given([...history, done]).when({ type: 'SetTransactionStatus', transactionId: TX, status: 'failed', now: LATER }).then(refused('transaction_final', 'Transaction status cannot be changed'));
  });

  it('refuses an unknown transaction', () => {
    given(history).when({ type: 'SetTransactionStatus', transactionId: uuid(999), status: 'failed', now: LATER }).then(refused('not_found', 'Transaction not found'));
  });
});

describe('an admin editing balances', () => {
  const adjust = { type: 'AdjustBalances', adminId: ADMIN_ID, savingsCents: 12500, checkingCents: 0, reason: 'Correction', transactionIds: { savings: uuid(701), checking: uuid(702) }, now: NOW } as const;

  it('adjusts by the difference, naming the admin, reason, previous and new balance', () => {
    given([opened(), funded('savings', 10000, 10000), funded('checking', 300, 300, uuid(903))])
      .when(adjust)
      .then([
        {
          type: 'BalanceAdjusted',
          data: { transactionId: uuid(701), account: 'savings', amountCents: 2500, direction: 'credit', description: 'Correction', status: 'completed', occurredAt: NOW, balanceAfterCents: 12500, businessDate: '2025-06-01', adminId: ADMIN_ID, reason: 'Correction', previousCents: 10000, newCents: 12500 },
        },
        {
          type: 'BalanceAdjusted',
          data: { transactionId: uuid(702), account: 'checking', amountCents: 300, direction: 'debit', description: 'Correction', status: 'completed', occurredAt: NOW, balanceAfterCents: 0, businessDate: '2025-06-01', adminId: ADMIN_ID, reason: 'Correction', previousCents: 300, newCents: 0 },
        },
      ]);
  });

  it('records nothing for an unchanged balance', () => {
    given([opened(), funded('savings', 12500, 12500)]).when(adjust).then([]);
  });

  it('describes an adjustment without reason as a balance adjustment', () => {
    const [event] = given([opened()]).when({ ...adjust, reason: undefined }).decision();
    expect(event?.data).toMatchObject({ description: 'Balance adjustment', reason: null });
  });

  it('refuses a negative balance', () => {
    given([opened()]).when({ ...adjust, checkingCents: -1 }).then(refused('negative_balance', 'Balance cannot be negative'));
  });

  it('refuses a balance above the limit', () => {
    given([opened()]).when({ ...adjust, savingsCents: MAX_BALANCE_CENTS + 1 }).then(refused('balance_limit', 'Balance limit exceeded'));
  });
});

describe('an admin posting a transaction', () => {
  const post = { type: 'PostStaffTransaction', transactionId: TX, adminId: ADMIN_ID, account: 'checking', direction: 'credit', amountCents: 5000, date: '2025-05-01', description: ' Salary ', now: NOW } as const;

  it('posts a credit dated as the admin says', () => {
    given([opened()])
      .when(post)
      .then([
        {
          type: 'StaffTransactionPosted',
          data: { transactionId: TX, account: 'checking', amountCents: 5000, direction: 'credit', description: 'Salary', status: 'completed', occurredAt: '2025-05-01T00:00:00.000Z', balanceAfterCents: 5000, businessDate: '2025-06-01', adminId: ADMIN_ID, postedAt: NOW },
        },
      ]);
  });

  it('accepts a full ISO instant as the date', () => {
    expect(given([opened()]).when({ ...post, date: '2025-05-01T12:30:00+02:00' }).decision()[0]?.data).toMatchObject({ occurredAt: '2025-05-01T10:30:00.000Z' });
  });

  it('posts a debit within the balance', () => {
    expect(given([opened(), funded('checking', 6000, 6000)]).when({ ...post, direction: 'debit' }).decision()[0]?.data).toMatchObject({ balanceAfterCents: 1000 });
  });

  it('refuses a debit beyond the balance', () => {
    given([opened(), funded('checking', 4999, 4999)]).when({ ...post, direction: 'debit' }).then(refused('insufficient_balance', 'You do not have enough balance'));
  });

  it.each(['amountCents', 'direction', 'date', 'description'] as const)('refuses without %s', (field) => {
    given([opened()]).when({ ...post, [field]: undefined }).then(refused('all_fields_required', 'All fields are required'));
  });

  it('refuses an impossible date', () => {
    given([opened()]).when({ ...post, date: '2025-02-30' }).then(refused('invalid_date', 'Date is not a valid date'));
  });

  it('refuses to push a balance above the limit', () => {
    given([opened(), { type: 'BalanceAdjusted', data: { transactionId: uuid(1), account: 'checking', amountCents: MAX_BALANCE_CENTS, direction: 'credit', description: 'x', status: 'completed', occurredAt: NOW, balanceAfterCents: MAX_BALANCE_CENTS, adminId: ADMIN_ID, reason: null, previousCents: 0, newCents: MAX_BALANCE_CENTS } }])
      .when(post)
      .then(refused('balance_limit', 'Balance limit exceeded'));
  });

  it('is recorded once per transaction id', () => {
    const [event] = given([opened()]).when(post).decision();
    given([opened(), event as AccountEvent]).when(post).then([]);
  });
});

describe('an admin reversing (deleting) a transaction', () => {
  const deposit = funded('savings', 10000, 10000, TX);
  const original = { account: 'savings', direction: 'credit', amountCents: 10000, description: 'Deposit', transferId: null } as const;
  const reverse = { type: 'ReverseTransaction', transactionId: uuid(800), reversedTransactionId: TX, original, adminId: ADMIN_ID, now: LATER } as const;
  const reversal: AccountEvent = {
    type: 'TransactionReversed',
    data: { transactionId: uuid(800), account: 'savings', amountCents: 10000, direction: 'debit', description: 'Reversal: Deposit', status: 'completed', occurredAt: LATER, balanceAfterCents: 0, businessDate: '2025-06-01', reversedTransactionId: TX, adminId: ADMIN_ID },
  };

  it('restores the balance and keeps the original', () => {
    given([opened(), deposit]).when(reverse).then([reversal]);
    const state = stateOf([opened(), deposit, reversal]);
    expect(state).toMatchObject({ balances: { savings: 0 } });
    const history = foldEvents(evolveAccountHistory, emptyAccountHistory(), [opened(), deposit, reversal]);
    expect(transactionsOf(history).map((t) => [t.transactionId, t.reversedBy, t.reverses])).toEqual([
      [TX, uuid(800), null],
      [uuid(800), null, TX],
    ]);
  });

  it('credits back a reversed debit', () => {
    const debit: AccountEvent = { type: 'StaffTransactionPosted', data: { ...funded('savings', 4000, 6000, TX).data, direction: 'debit' } };
    const [event] = given([opened(), funded('savings', 10000, 10000, uuid(901)), debit])
      .when({ ...reverse, original: { ...original, direction: 'debit', amountCents: 4000 } })
      .decision();
    expect(event?.data).toMatchObject({ direction: 'credit', amountCents: 4000, balanceAfterCents: 10000 });
  });

  it('refuses to reverse a credit that was already spent', () => {
    const spend: AccountEvent = { type: 'StaffTransactionPosted', data: { ...funded('savings', 6000, 4000, uuid(902)).data, direction: 'debit' } };
    given([opened(), deposit, spend]).when(reverse).then(refused('insufficient_balance', 'You do not have enough balance'));
  });

  it('refuses to reverse twice', () => {
    given([opened(), deposit, reversal]).when({ ...reverse, transactionId: uuid(801) }).then(refused('already_reversed', 'Transaction already reversed'));
  });

  it('refuses to reverse a reversal', () => {
    given([opened(), deposit, reversal]).when({ ...reverse, transactionId: uuid(801), reversedTransactionId: uuid(800) }).then(refused('reversal_not_reversible', 'A reversal cannot be reversed'));
  });

  it('records nothing when the same reversal is retried', () => {
    given([opened(), deposit, reversal]).when(reverse).then([]);
  });

  it('refuses a pending transaction', () => {
    const pending: AccountEvent = {
      type: 'AccountDebited',
      data: { transactionId: uuid(850), account: 'savings', amountCents: 100, direction: 'debit', description: 'x', transferId: TRANSFER, status: 'pending', occurredAt: NOW, balanceAfterCents: 9900 },
    };
    given([opened(), deposit, pending]).when({ ...reverse, reversedTransactionId: uuid(850) }).then(refused('transaction_not_reversible', 'Only a completed transaction can be reversed'));
  });

  it('refuses an unknown transaction', () => {
    given([opened()]).when(reverse).then(refused('not_found', 'Transaction not found'));
  });
});

describe('a closed account', () => {
  const history = [opened(), funded('savings', 10000, 10000), closedAccount];

  it('is closed once', () => {
    given([opened()]).when({ type: 'CloseAccount', adminId: ADMIN_ID, now: NOW }).then([closedAccount]);
    given(history).when({ type: 'CloseAccount', adminId: ADMIN_ID, now: NOW }).then([]);
  });

  it.each([
    { type: 'DebitForTransfer', transactionId: TX, transferId: TRANSFER, account: 'savings', amountCents: 1, description: 'x', now: NOW },
    { type: 'CreditForTransfer', transactionId: TX, transferId: TRANSFER, account: 'savings', amountCents: 1, description: 'x', now: NOW },
    { type: 'AdjustBalances', adminId: ADMIN_ID, savingsCents: 1, checkingCents: 1, transactionIds: { savings: uuid(1), checking: uuid(2) }, now: NOW },
    { type: 'PostStaffTransaction', transactionId: TX, adminId: ADMIN_ID, account: 'savings', direction: 'credit', amountCents: 1, date: '2025-01-01', description: 'x', now: NOW },
    {
      type: 'ReverseTransaction',
      transactionId: TX,
      reversedTransactionId: uuid(1),
      original: { account: 'savings', direction: 'credit', amountCents: 1, description: 'x', transferId: null },
      adminId: ADMIN_ID,
      now: NOW,
    },
  ] as const)('refuses $type', (command) => {
    given(history).when(command).then(refused('closed', 'Account is closed'));
  });

  it('still accepts the refund of a failed transfer', () => {
    const [event] = given(history)
      .when({ type: 'RefundTransfer', transactionId: TX, transferId: TRANSFER, refundOf: uuid(77), account: 'savings', amountCents: 500, description: 'Refund', now: NOW })
      .decision();
    expect(event).toMatchObject({ type: 'AccountCredited', data: { refundOf: uuid(77), balanceAfterCents: 10500 } });
  });
});
