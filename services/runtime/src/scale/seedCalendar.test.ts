import { describe, expect, it } from 'vitest';
import { daySlot, paymentSlot, seedCalendar } from './seedCalendar';
import { decodeLine, encodeSegment, newEventOf, type SlotLines } from './seedSpill';
import { SeedStream } from './seedStream';
import { accountDecider } from '@bank/domain';

describe('the generated history’s calendar', () => {
  it('runs by default from 1 January 2025 to the end of the month of the latest event a plan can hold', () => {
    const calendar = seedCalendar();
    expect(calendar.firstDate).toBe('2025-01-01');
    expect(calendar.lastDate).toBe('2026-01-31');
    expect(calendar.days).toBe(396);
    expect(calendar.slots).toBe(792);
    expect(calendar.date(calendar.days - 1)).toBe(calendar.lastDate);
    expect(calendar.cobInstant(0)).toBe('2025-01-02T00:00:00.000Z');
    expect(calendar.rates(0)).toEqual({ savings: 50_000, checking: 0 });
  });

  it('ends on a given date, 396 days long, and dates an instant by its UTC day (before the first: day 0; after the last: refused)', () => {
    const calendar = seedCalendar('2026-11-27');
    expect(calendar.days).toBe(396);
    expect(calendar.lastDate).toBe('2026-11-27');
    expect(calendar.date(395)).toBe('2026-11-27');
    expect(calendar.dayOf(`${calendar.firstDate}T23:59:59.999Z`)).toBe(0);
    expect(calendar.dayOf('2020-01-01T00:00:00.000Z')).toBe(0);
    expect(calendar.dayOf('2026-11-27T12:00:00.000Z')).toBe(395);
    expect(() => calendar.dayOf('2026-11-28T00:00:00.000Z')).toThrow(/after the generated history/);
    expect(() => seedCalendar('2026-13-01')).toThrow();
  });
});

describe('a stream’s slots', () => {
  it('follow its events’ days and never go back: a late event joins the slot of the one before it', () => {
    const calendar = seedCalendar();
    const stream = new SeedStream('account-u1', accountDecider, undefined, calendar);
    const context = (n: number) => ({ commandId: `t:${n}`, metadata: { actorRole: 'admin' as const, actorId: 'a' } });
    stream.command({ type: 'OpenAccount', userId: 'u1', accountNumber: '4000000001', now: '2025-01-03T10:00:00.000Z' }, context(0), '2025-01-03T10:00:00.000Z');
    const post = (n: number, at: string) =>
      stream.command({ type: 'PostStaffTransaction', transactionId: `00000000-0000-4000-8000-00000000000${n}`, adminId: 'a', account: 'checking', direction: 'credit', amountCents: 100, date: at, description: 'x', now: at }, context(n), at);
    post(1, '2025-01-05T10:00:00.000Z');
    post(2, '2025-01-04T10:00:00.000Z');
    stream.command({ type: 'PayInterest', transactionId: '00000000-0000-4000-8000-000000000009', account: 'checking', amountCents: 1, month: '2025-01', accruedUnits: '1', carryUnits: '0', businessDate: '2025-01-31', now: '2025-02-01T00:00:00.000Z' }, context(3), '2025-02-01T00:00:00.000Z', paymentSlot(30));
    post(4, '2025-02-01T10:00:00.000Z');
    expect(stream.segments().map((s) => [s.slot, s.fromRevision, s.events.length, s.last])).toEqual([
      [daySlot(2), 0, 1, false],
      [daySlot(4), 1, 2, false],
      [paymentSlot(30), 3, 1, false],
      [daySlot(31), 4, 1, true],
    ]);
    expect(stream.segments(3).map((s) => [s.slot, s.fromRevision])).toEqual([
      [paymentSlot(30), 3],
      [daySlot(31), 4],
    ]);
  });

  it('are spilled as lines that give back the same events, revisions and chain fields', () => {
    const calendar = seedCalendar();
    const stream = new SeedStream('contact-x', accountDecider, undefined, calendar);
    stream.command({ type: 'OpenAccount', userId: 'tab\there\\and\nline', accountNumber: '4000000002', now: '2025-01-03T10:00:00.000Z' }, { commandId: 'c', metadata: { actorRole: 'customer', actorId: 'u' } }, '2025-01-03T10:00:00.000Z');
    const lines: SlotLines = new Map();
    for (const segment of stream.segments()) encodeSegment(lines, stream.stream, segment);
    const [line] = lines.get(daySlot(2))!.split('\n');
    const decoded = decodeLine(line!);
    expect(decoded).toMatchObject({ stream: 'contact-x', revision: 0, final: true, hash: stream.events[0]!.metadata!.hash ?? null });
    expect(newEventOf(decoded)).toEqual({ ...stream.events[0], metadata: stream.events[0]!.metadata ?? {} });
  });
});
