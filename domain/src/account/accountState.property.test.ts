import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldEvents } from '../decider';
import { commandRecipe, runAccountHistory } from '../testing/randomHistory';
import { accountDecider } from './accountDecider';
import { emptyAccountHistory, evolveAccountHistory } from './accountHistory';
import { accountSnapshot, forkAccountState, transactionStatusOf, type AccountState } from './accountState';

const fold = (events: Parameters<typeof accountDecider.evolve>[1][]) => foldEvents(accountDecider.evolve, accountDecider.initialState, events);
const histories = fc.array(commandRecipe, { minLength: 5, maxLength: 80 });

describe('the write-side account state (property)', () => {
  it('agrees with the auditors’ full history on balances, recorded ids and every status', () => {
    fc.assert(
      fc.property(histories, (recipes) => {
        const { events } = runAccountHistory(recipes);
        const state = fold(events);
        const history = foldEvents(evolveAccountHistory, emptyAccountHistory(), events);
        if (state.status === 'unopened') throw new Error('the history opens the account');
        expect(state.balances).toEqual(history.balances);
        expect(state.status).toBe(history.status);
        expect([...state.recorded]).toEqual([...history.transactions.keys()]);
        for (const record of history.transactions.values()) {
          expect(transactionStatusOf(state, record.transactionId)).toBe(record.status);
          const final = state.final.get(record.transactionId);
          expect(final === 'reversal').toBe(record.kind === 'reversal');
          expect(final === 'reversed').toBe(record.reversedBy !== null);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('resumes from a snapshot taken at any point: snapshot plus the tail equals the whole fold', () => {
    fc.assert(
      fc.property(histories, fc.nat(), (recipes, at) => {
        const { events } = runAccountHistory(recipes);
        const split = at % (events.length + 1);
        const whole = fold(events);
        const json = JSON.parse(JSON.stringify(accountSnapshot.encode(fold(events.slice(0, split))))) as unknown;
        const resumed = foldEvents(accountDecider.evolve, accountSnapshot.decode(json), events.slice(split));
        expect(accountSnapshot.encode(resumed)).toEqual(accountSnapshot.encode(whole));
      }),
      { numRuns: 200 },
    );
  });

  it('a fork folds the rest of a history like the state itself, and leaves the state it was forked from unchanged', () => {
    fc.assert(
      fc.property(histories, fc.nat(), (recipes, at) => {
        const { events } = runAccountHistory(recipes);
        const split = at % (events.length + 1);
        const state = fold(events.slice(0, split));
        const before = JSON.stringify(accountSnapshot.encode(state));
        const fork = foldEvents(accountDecider.evolve, forkAccountState(state), events.slice(split));
        expect(accountSnapshot.encode(fork)).toEqual(accountSnapshot.encode(fold(events)));
        expect(JSON.stringify(accountSnapshot.encode(state))).toBe(before);
      }),
      { numRuns: 200 },
    );
  });

  it('folds in place without ever changing the shared initial state', () => {
    const { events } = runAccountHistory([{ kind: 'credit', account: 'savings', amount: 100 }]);
    const state: AccountState = fold(events);
    expect(accountDecider.initialState).toEqual({ status: 'unopened' });
    expect(Object.isFrozen(accountDecider.initialState)).toBe(true);
    expect(state).not.toBe(accountDecider.initialState);
  });
});
