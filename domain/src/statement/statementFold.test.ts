import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BankEvent } from '../events/eventSchemas';
import { replayCustomer, type StoredEvent } from '../replay/replayCustomer';
import { funded, opened, registered, uuid } from '../testing/fixtures';
import { commandRecipe, runAccountHistory } from '../testing/randomHistory';
import { createStatementFold, type StatementLine, type StatementTotals } from './statementFold';
import { statementPeriod, type StatementPeriod } from './statementPeriod';

const DAY = 86_400_000;
const BASE = Date.parse('2025-01-01T00:00:00.000Z');

function period(from: string, to: string): StatementPeriod {
  const result = statementPeriod(from, to);
  if ('message' in result) throw new Error(result.message);
  return result;
}

function day(offset: number): string {
  return new Date(BASE + offset * DAY).toISOString().slice(0, 10);
}

function statementOf(events: readonly StoredEvent[], account: 'savings' | 'checking', p: StatementPeriod): { lines: StatementLine[]; totals: StatementTotals } {
  const fold = createStatementFold(account, p);
  const lines: StatementLine[] = [];
  for (const event of events) {
    const step = fold.step(event);
    if (step.kind === 'after') break;
    if (step.kind === 'line' && step.line) lines.push(step.line);
  }
  return { lines, totals: fold.totals() };
}

describe('createStatementFold', () => {
  const stored: StoredEvent[] = [
    { ...registered(), createdAt: '2025-01-01T00:00:00.000Z' },
    { ...opened(), createdAt: '2025-01-01T00:00:00.000Z' },
    { ...funded('checking', 10_000, 10_000, uuid(1)), createdAt: '2025-01-31T23:59:59.999Z' },
    { ...funded('checking', 2_500, 12_500, uuid(2)), createdAt: '2025-02-01T00:00:00.000Z' },
    { ...funded('savings', 700, 700, uuid(3)), createdAt: '2025-02-10T12:00:00.000Z' },
    { ...funded('checking', 1_000, 13_500, uuid(4)), createdAt: '2025-02-28T23:59:59.999Z' },
    { ...funded('checking', 5, 13_505, uuid(5)), createdAt: '2025-03-01T00:00:00.000Z' },
  ];

  it('takes whole UTC days, both bounds inclusive, and lists only the chosen account', () => {
    const { lines, totals } = statementOf(stored, 'checking', period('2025-02-01', '2025-02-28'));
    expect(lines.map((line) => [line.transactionId, line.amountCents, line.balanceAfterCents, line.date])).toEqual([
      [uuid(2), 2_500, 12_500, '2025-02-01T00:00:00.000Z'],
      [uuid(4), 1_000, 13_500, '2025-02-28T23:59:59.999Z'],
    ]);
    expect(totals).toEqual({ openingCents: 10_000, closingCents: 13_500, totalInCents: 3_500, totalOutCents: 0, lines: 2 });
  });

  it('reports a quiet period with its balance as both opening and closing, and a period before the account with zeros', () => {
    expect(statementOf(stored, 'savings', period('2025-03-01', '2025-03-31')).totals).toEqual({ openingCents: 700, closingCents: 700, totalInCents: 0, totalOutCents: 0, lines: 0 });
    expect(statementOf(stored, 'checking', period('2024-12-01', '2024-12-31')).totals).toEqual({ openingCents: 0, closingCents: 0, totalInCents: 0, totalOutCents: 0, lines: 0 });
  });

  it("lists a month's interest payment as a credit of kind 'interest'", () => {
    const credit = (transactionId: string, extra: object): StoredEvent => ({
      type: 'AccountCredited',
      data: { transactionId, account: 'savings', amountCents: 274, description: 'Interest', occurredAt: '2025-03-31T23:00:00.000Z', balanceAfterCents: 974, direction: 'credit', status: 'completed', ...extra },
      createdAt: '2025-03-31T23:00:00.000Z',
    } as StoredEvent);
    const events = [...stored, credit(uuid(6), { interest: { month: '2025-03', accruedUnits: '100000000000', carryUnits: '-10000000' } })];
    const { lines } = statementOf(events, 'savings', period('2025-03-01', '2025-03-31'));
    expect(lines.map((line) => [line.transactionId, line.kind, line.description, line.amountCents])).toEqual([[uuid(6), 'interest', 'Interest', 274]]);
  });

  it('stops at the first event after the period', () => {
    const fold = createStatementFold('checking', period('2025-01-01', '2025-01-31'));
    expect(stored.map((event) => fold.step(event).kind)).toEqual(['line', 'line', 'line', 'after', 'after', 'after', 'after']);
  });
});

describe('statements agree with the auditors replay (property)', () => {
  /** A random account history, its events stamped at non-decreasing instants over about four months. */
  const history = fc
    .tuple(fc.array(commandRecipe, { minLength: 1, maxLength: 60 }), fc.array(fc.integer({ min: 0, max: 5 * DAY }), { minLength: 61, maxLength: 61 }))
    .map(([recipes, gaps]): StoredEvent[] => {
      const events: BankEvent[] = [registered(), ...runAccountHistory(recipes).events];
      let at = BASE;
      return events.map((event, index) => {
        at += gaps[index % gaps.length]!;
        return { ...event, createdAt: new Date(at) };
      });
    });
  const cuts = fc.tuple(fc.integer({ min: -5, max: 60 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }));

  it('closing = balances-at(end) = next opening; opening + in − out = closing; balanceAfter chains', () => {
    fc.assert(
      fc.property(history, cuts, fc.constantFrom('savings' as const, 'checking' as const), (events, [first, length, nextLength], account) => {
        const p1 = period(day(first), day(first + length));
        const p2 = period(day(first + length + 1), day(first + length + 1 + nextLength));
        const one = statementOf(events, account, p1);
        const two = statementOf(events, account, p2);
        const balanceAt = (at: Date) => {
          const { balances } = replayCustomer(events, at);
          return account === 'savings' ? balances.savingsCents : balances.checkingCents;
        };
        expect(one.totals.closingCents).toBe(balanceAt(p1.end));
        expect(one.totals.openingCents).toBe(balanceAt(new Date(p1.start.getTime() - 1)));
        expect(two.totals.openingCents).toBe(one.totals.closingCents);
        expect(two.totals.closingCents).toBe(balanceAt(p2.end));
        for (const { lines, totals } of [one, two]) {
          expect(totals.openingCents + totals.totalInCents - totals.totalOutCents).toBe(totals.closingCents);
          let running = totals.openingCents;
          for (const line of lines) {
            running += line.direction === 'credit' ? line.amountCents : -line.amountCents;
            expect(line.balanceAfterCents).toBe(running);
          }
          expect(running).toBe(totals.closingCents);
          expect(lines.length).toBe(totals.lines);
        }
        const inPeriod = replayCustomer(events, p1.end).transactions.filter((t) => t.account === account).length -
          replayCustomer(events, new Date(p1.start.getTime() - 1)).transactions.filter((t) => t.account === account).length;
        expect(one.lines.length).toBe(inPeriod);
      }),
      { numRuns: 300 },
    );
  });
});
