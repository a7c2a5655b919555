import type { AccountKind } from '../../lib/api/types';

/** GET /api/standing-orders: one order (docs/api.md, "Standing orders"). */
export interface StandingOrder {
  _id: string;
  status: 'active' | 'paused' | 'suspended' | 'cancelled';
  suspendedReason: string | null;
  from: AccountKind;
  accountNumber: string;
  bankName: string;
  routingNumber: string;
  accountType: AccountKind;
  recipientName: string;
  amount: number;
  description: string;
  schedule: Schedule;
  nextDate: string | null;
  paymentsMade: number;
  occurrences: { date: string; status: 'paid' | 'failed' | 'missed'; transferId?: string; reason?: string }[];
  createdAt: string;
}

export interface Schedule {
  frequency: 'weekly' | 'monthly';
  day: number;
  firstDate: string;
  endDate?: string;
  count?: number;
}

/** The schedule as the form holds it. */
export interface ScheduleDraft {
  frequency: 'weekly' | 'monthly';
  day: string;
  firstDate: string;
  ends: 'never' | 'date' | 'count';
  endDate: string;
  count: string;
}

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** Today's UTC date, and a first draft paying monthly on that day of the month from today. */
export function emptyScheduleDraft(now: Date): ScheduleDraft {
  const today = now.toISOString().slice(0, 10);
  return { frequency: 'monthly', day: String(now.getUTCDate()), firstDate: today, ends: 'never', endDate: '', count: '' };
}

const ordinal = (n: number): string => {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
};

/** "Monthly on the 31st (or the month's last day), from 2025-07-31, 12 payments". */
export function describeSchedule(schedule: Schedule): string {
  const when =
    schedule.frequency === 'weekly'
      ? `Weekly on ${WEEKDAYS[schedule.day - 1] ?? `day ${schedule.day}`}`
      : `Monthly on the ${ordinal(schedule.day)}${schedule.day > 28 ? ' (or the month’s last day)' : ''}`;
  const end = schedule.endDate ? `, until ${schedule.endDate}` : schedule.count ? `, ${schedule.count} payment${schedule.count === 1 ? '' : 's'}` : '';
  return `${when}, from ${schedule.firstDate}${end}`;
}

/** The schedule of a draft, or the message saying what is wrong (the server checks it again). */
export function scheduleOf(draft: ScheduleDraft, today: string): { ok: true; schedule: Schedule } | { ok: false; message: string } {
  const day = Number(draft.day);
  const maxDay = draft.frequency === 'weekly' ? 7 : 31;
  if (!Number.isInteger(day) || day < 1 || day > maxDay) return { ok: false, message: draft.frequency === 'weekly' ? 'Choose a weekday' : 'Choose a day of the month' };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.firstDate)) return { ok: false, message: 'Choose the first date' };
  if (draft.firstDate < today) return { ok: false, message: 'First date cannot be in the past' };
  const schedule: Schedule = { frequency: draft.frequency, day, firstDate: draft.firstDate };
  if (draft.ends === 'date') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.endDate) || draft.endDate < draft.firstDate) return { ok: false, message: 'End date must be on or after the first date' };
    return { ok: true, schedule: { ...schedule, endDate: draft.endDate } };
  }
  if (draft.ends === 'count') {
    const count = Number(draft.count);
    if (!/^\d+$/.test(draft.count.trim()) || count < 1 || count > 10_000) return { ok: false, message: 'Number of payments must be 1 to 10000' };
    return { ok: true, schedule: { ...schedule, count } };
  }
  return { ok: true, schedule };
}
