import { describe, expect, it } from 'vitest';
import { standingOrderInput } from './standingOrderInput';

const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } | undefined }) =>
  result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]) ?? [];

const transfer = { from: 'checking', amount: '12.50', accountNumber: '1234567890', accountType: 'savings', description: 'Rent', paymentPin: '123456' };
const expected = { from: 'checking', amountCents: 1250, accountNumber: '1234567890', accountType: 'savings', description: 'Rent', paymentPin: '123456' };

describe('standing order input (API.md: the schedule at the top level, nested accepted too)', () => {
  it('takes the schedule’s fields at the top level of the body', () => {
    const parsed = standingOrderInput.parse({ ...transfer, frequency: 'monthly', day: '31', firstDate: '2026-12-01', count: 3 });
    expect(parsed).toEqual({ ...expected, schedule: { frequency: 'monthly', day: 31, firstDate: '2026-12-01', count: 3 } });
  });

  it('takes the same fields nested in schedule: {…}, and the nested ones win', () => {
    const body = { ...transfer, day: 2, schedule: { frequency: 'weekly', day: 5, firstDate: '2026-12-01', endDate: '2027-01-31' } };
    expect(standingOrderInput.parse(body)).toEqual({ ...expected, schedule: { frequency: 'weekly', day: 5, firstDate: '2026-12-01', endDate: '2027-01-31' } });
  });

  it('names the missing or malformed field, whichever form was sent', () => {
    expect(messages(standingOrderInput.safeParse(transfer))).toEqual([
      ['frequency', 'Frequency must be weekly or monthly'],
      ['day', 'Day must be a whole number'],
      ['firstDate', 'First date must be a date (YYYY-MM-DD)'],
    ]);
    expect(messages(standingOrderInput.safeParse({ ...transfer, schedule: { frequency: 'daily', day: 1, firstDate: '2026-12-01' } }))).toEqual([
      ['frequency', 'Frequency must be weekly or monthly'],
    ]);
    expect(messages(standingOrderInput.safeParse({ ...transfer, frequency: 'weekly', day: 32, firstDate: '2026-12-01', endDate: 'soon' }))).toEqual([
      ['day', 'Day must be 1 to 31'],
      ['endDate', 'End date must be a date (YYYY-MM-DD)'],
    ]);
  });

  it('leaves out an empty end date or count', () => {
    const parsed = standingOrderInput.parse({ ...transfer, frequency: 'weekly', day: 1, firstDate: '2026-12-01', endDate: '', count: null });
    expect(parsed.schedule).toEqual({ frequency: 'weekly', day: 1, firstDate: '2026-12-01' });
  });
});
