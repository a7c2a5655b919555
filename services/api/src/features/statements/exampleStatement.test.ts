import { replayCustomer } from '@bank/domain';
import { describe, expect, it } from 'vitest';
import { exampleHistory, exampleStatement } from './exampleStatement';
import { statementJson } from './statementJson';

const cents = (dollars: number) => Math.round(dollars * 100);

describe('the example statement (npm run statement:example)', () => {
  it("is a generated customer's month that adds up, its closing balance that of the replay", async () => {
    const history = exampleHistory(new Date('2026-09-01T00:00:00.000Z'), 2);
    const statement = await statementJson(exampleStatement(history, 'checking', '2026-10-01', '2026-10-31'));
    expect(statement).toMatchObject({ customerName: 'Jordan Example', accountNumber: '7012345678', from: '2026-10-01', to: '2026-10-31' });
    expect(statement.transactions.length).toBeGreaterThan(30);
    expect(statement.openingBalance).toBeGreaterThan(0);
    expect(cents(statement.openingBalance) + cents(statement.totalIn) - cents(statement.totalOut)).toBe(cents(statement.closingBalance));
    const replay = replayCustomer([...history.customerEvents, ...history.accountEvents], new Date('2026-10-31T23:59:59.999Z'));
    expect(cents(statement.closingBalance)).toBe(replay.balances.checkingCents);
    // The same on every run: the generator is seeded.
    const again = await statementJson(exampleStatement(exampleHistory(new Date('2026-09-01T00:00:00.000Z'), 2), 'checking', '2026-10-01', '2026-10-31'));
    expect(again).toEqual(statement);
  });
});
