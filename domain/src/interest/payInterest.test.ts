import { describe, expect, it } from 'vitest';
import { decideAccount, evolveAccount } from '../account/accountDecider';
import { initialAccountState, type AccountState } from '../account/accountState';
import { journalEntryOf } from '../ledger/postingRules';

const USER = '00000000-0000-4000-8000-000000000001';
const ADMIN = '00000000-0000-4000-8000-0000000000ad';
const NOW = '2026-07-01T00:05:00.000Z';
const PAY = {
  type: 'PayInterest',
  transactionId: '00000000-0000-4000-8000-000000000777',
  account: 'savings',
  amountCents: 417,
  month: '2026-06',
  accruedUnits: '152205000000',
  carryUnits: '-49999999',
  businessDate: '2026-06-30',
  now: NOW,
} as const;

function opened(): AccountState {
  return decideAccount({ type: 'OpenAccount', userId: USER, accountNumber: '1234567890', now: NOW }, initialAccountState).reduce(evolveAccount, initialAccountState);
}

describe('an interest payment', () => {
  it('is a completed credit described Interest, posted from interest-payable to the customer', () => {
    const [event] = decideAccount(PAY, opened());
    expect(event).toMatchObject({
      type: 'AccountCredited',
      data: { description: 'Interest', amountCents: 417, status: 'completed', balanceAfterCents: 417, businessDate: '2026-06-30', interest: { month: '2026-06', accruedUnits: '152205000000', carryUnits: '-49999999' } },
    });
    const entry = journalEntryOf(event!, { streamId: `account-${USER}`, recordedAt: NOW });
    expect(entry?.lines.map((line) => [line.accountKey, line.side, line.amountCents, line.customerId])).toEqual([
      ['customer-savings', 'credit', 417, USER],
      ['interest-payable', 'debit', 417, USER],
    ]);
  });

  it('is paid once for its transaction id, and also to a closed account', () => {
    let state = opened();
    state = decideAccount(PAY, state).reduce(evolveAccount, state);
    expect(decideAccount(PAY, state)).toEqual([]);
    const closed = decideAccount({ type: 'CloseAccount', adminId: ADMIN, now: NOW }, opened()).reduce(evolveAccount, opened());
    expect(decideAccount(PAY, closed)).toHaveLength(1);
  });
});
