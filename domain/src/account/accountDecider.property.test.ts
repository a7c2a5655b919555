import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeParseEvent } from '../events/eventSchemas';
import { commandRecipe, runAccountHistory } from '../testing/randomHistory';
import type { AccountEvent } from './accountDecider';
import { isMoneyEvent, signedAmount } from './accountDecider';
import type { AccountState } from './accountState';

describe('random sequences of account commands (property)', () => {
  it('never produce a negative balance, and each balance always equals its credits minus its debits', () => {
    fc.assert(
      fc.property(fc.array(commandRecipe, { minLength: 5, maxLength: 60 }), (recipes) => {
        const sums = { savings: 0, checking: 0 };
        const check = (state: AccountState, event: AccountEvent) => {
          if (isMoneyEvent(event)) {
            sums[event.data.account] += signedAmount(event);
            expect(event.data.balanceAfterCents).toBe(sums[event.data.account]);
          }
          if (state.status === 'unopened') return;
          expect(state.balances.savings).toBeGreaterThanOrEqual(0);
          expect(state.balances.checking).toBeGreaterThanOrEqual(0);
          expect(state.balances).toEqual(sums);
        };
        runAccountHistory(recipes, check);
      }),
      { numRuns: 300 },
    );
  });

  it('emit only events that satisfy their schemas', () => {
    fc.assert(
      fc.property(fc.array(commandRecipe, { minLength: 5, maxLength: 40 }), (recipes) => {
        for (const event of runAccountHistory(recipes).events) {
          const parsed = safeParseEvent(event.type, event.data);
          if (!parsed.ok) throw parsed.error;
        }
      }),
      { numRuns: 100 },
    );
  });

  it('never reverse a transaction twice nor reverse a reversal', () => {
    fc.assert(
      fc.property(fc.array(commandRecipe, { minLength: 5, maxLength: 60 }), (recipes) => {
        const events = runAccountHistory(recipes).events;
        const reversed = events.flatMap((e) => (e.type === 'TransactionReversed' ? [e.data.reversedTransactionId] : []));
        const reversals = new Set(events.flatMap((e) => (e.type === 'TransactionReversed' ? [e.data.transactionId] : [])));
        expect(new Set(reversed).size).toBe(reversed.length);
        expect(reversed.filter((id) => reversals.has(id))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('record each transaction id at most once', () => {
    fc.assert(
      fc.property(fc.array(commandRecipe, { minLength: 5, maxLength: 60 }), (recipes) => {
        const ids = runAccountHistory(recipes).events.flatMap((e) => (isMoneyEvent(e) ? [e.data.transactionId] : []));
        expect(new Set(ids).size).toBe(ids.length);
      }),
      { numRuns: 200 },
    );
  });
});
