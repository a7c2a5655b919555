import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../decider';
import type { BankEvent } from '../events/eventSchemas';
import { EventParseError } from '../events/eventSchemas';
import { ADMIN_ID, funded, NOW, opened, pinSet, registered, uuid } from '../testing/fixtures';
import { commandRecipe, runAccountHistory } from '../testing/randomHistory';
import { forgetOlderTransactions } from '../account/accountHistory';
import { evolveCustomerLedger, newCustomerLedger, newestTransactionViews, replayCustomer, replayCustomerLedger, transactionJson, transactionViews } from './replayCustomer';
import type { StoredEvent } from './replayCustomer';

const at = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000);

describe('replayCustomer', () => {
  const deposit = funded('savings', 10000, 10000, uuid(700));
  const reversal: BankEvent = {
    type: 'TransactionReversed',
    data: { transactionId: uuid(701), account: 'savings', amountCents: 10000, direction: 'debit', description: 'Reversal: Deposit', status: 'completed', occurredAt: NOW, balanceAfterCents: 0, reversedTransactionId: uuid(700), adminId: ADMIN_ID },
  };
  const stored: StoredEvent[] = [
    { ...registered(), createdAt: at(0) },
    { ...opened(), createdAt: at(0) },
    { ...deposit, createdAt: at(1) },
    { ...funded('checking', 2550, 2550, uuid(702)), createdAt: at(2).toISOString() },
    { type: 'TransferSent', data: { transferId: uuid(9), occurredAt: NOW }, createdAt: at(2) },
    { ...reversal, createdAt: at(3) },
  ];

  it('gives the customer, balances and transactions with their status', () => {
    const replay = replayCustomer(stored);
    expect(replay.customer).toMatchObject({ status: 'active', email: 'ada@example.com' });
    expect(replay.balances).toEqual({ savingsCents: 0, checkingCents: 2550 });
    expect(replay.transactions.map((t) => [t.transactionId, t.status])).toEqual([
      [uuid(700), 'reversed'],
      [uuid(702), 'completed'],
      [uuid(701), 'completed'],
    ]);
    expect(replay.applied).toBe(6);
  });

  it('gives the balances as they stood at an instant', () => {
    expect(replayCustomer(stored, at(1)).balances).toEqual({ savingsCents: 10000, checkingCents: 0 });
    expect(replayCustomer(stored, at(2)).balances).toEqual({ savingsCents: 10000, checkingCents: 2550 });
    expect(replayCustomer(stored, at(-1))).toMatchObject({ customer: { status: 'unregistered' }, balances: { savingsCents: 0, checkingCents: 0 }, transactions: [] });
  });

  it('presents transactions in the API shape, in dollars', () => {
    expect(replayCustomer(stored).transactions.map(transactionJson)[1]).toEqual({
      _id: uuid(702),
      amount: 25.5,
      transactionType: 'credit',
      date: NOW,
      description: 'Deposit',
      account: 'checking',
      status: 'completed',
      balanceAfter: 25.5,
    });
  });

  it('refuses invalid stored data', () => {
    expect(() => replayCustomer([{ type: 'AccountOpened', data: { userId: 'nope' } }])).toThrow(EventParseError);
    expect(() => replayCustomer([{ type: 'NoSuchEvent', data: {} }])).toThrow('Unknown event type: NoSuchEvent');
  });
});

describe('replay is a linear fold (property)', () => {
  const history = fc.array(commandRecipe, { minLength: 1, maxLength: 40 }).map((recipes): BankEvent[] => [registered(), pinSet(), ...runAccountHistory(recipes).events]);

  it('replaying in one pass or split at any point gives the same state', () => {
    fc.assert(
      fc.property(history, fc.nat(), (events, cut) => {
        const split = cut % (events.length + 1);
        const whole = foldEvents(evolveCustomerLedger, newCustomerLedger(), events);
        const first = foldEvents(evolveCustomerLedger, newCustomerLedger(), events.slice(0, split));
        expect(foldEvents(evolveCustomerLedger, first, events.slice(split))).toEqual(whole);
        const resumed = replayCustomerLedger(events.slice(split), undefined, replayCustomerLedger(events.slice(0, split)).state).state;
        expect(resumed).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });

  it('replaying up to an instant gives the state of the events recorded until then', () => {
    fc.assert(
      fc.property(history, fc.nat(), (events, cut) => {
        const split = cut % (events.length + 1);
        const stored = events.map((event, index) => ({ ...event, createdAt: at(index) }));
        const replay = replayCustomer(stored, at(split - 1));
        const prefix = foldEvents(evolveCustomerLedger, newCustomerLedger(), events.slice(0, split));
        expect({ customer: replay.customer, account: replay.account }).toEqual(prefix);
      }),
      { numRuns: 200 },
    );
  });

  it('stored events read back through JSON replay to the same state', () => {
    fc.assert(
      fc.property(history, (events) => {
        const stored = JSON.parse(JSON.stringify(events)) as StoredEvent[];
        const replay = replayCustomer(stored);
        expect({ customer: replay.customer, account: replay.account }).toEqual(foldEvents(evolveCustomerLedger, newCustomerLedger(), events));
      }),
      { numRuns: 100 },
    );
  });
});

describe('a replay that keeps only the newest transactions (property)', () => {
  const history = fc.array(commandRecipe, { minLength: 1, maxLength: 60 }).map((recipes): BankEvent[] => [registered(), pinSet(), ...runAccountHistory(recipes).events]);

  it('gives the balances, the newest transactions (reversals and status changes included) and the count of a full replay', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 10 }), (events, keep, pageSize) => {
        const whole = replayCustomer(events);
        let state = newCustomerLedger();
        let dropped = 0;
        for (let start = 0; start < events.length; start += pageSize) {
          state = replayCustomerLedger(events.slice(start, start + pageSize), undefined, state).state;
          dropped += forgetOlderTransactions(state.account, keep);
          expect(state.account.transactions.size).toBeLessThanOrEqual(keep);
        }
        expect(state.account.balances).toEqual(whole.account.balances);
        expect(newestTransactionViews(state.account, keep)).toEqual(whole.transactions.slice(-keep).reverse());
        expect(dropped + state.account.transactions.size).toBe(whole.transactions.length);
      }),
      { numRuns: 300 },
    );
  });

  it('lists the newest first and all of them when there are fewer than asked', () => {
    const events = [registered(), pinSet(), ...runAccountHistory([]).events];
    const full = replayCustomer([...events, opened(), funded('savings', 100, 100, uuid(1)), funded('checking', 50, 50, uuid(2))]);
    expect(newestTransactionViews(full.account, 5).map((view) => view.transactionId)).toEqual([uuid(2), uuid(1)]);
    expect(transactionViews(full.account).map((view) => view.transactionId)).toEqual([uuid(1), uuid(2)]);
  });
});
