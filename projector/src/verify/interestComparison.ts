import { createInterestBook, type BankEvent, type DayAccrual, type InterestBook } from '@bank/domain';
import type { RecordedEvent } from '@bank/eventstore';
import type pg from 'pg';
import type { ReadModelTables } from '../schema/readModelTables';
import type { VerifyMismatch } from './verifyReadModels';

/** The event types the interest replay reads (createInterestBook's apply ignores the others). */
export const interestReplayTypes: ReadonlySet<string> = new Set<string>([
  'AccountOpened',
  'AccountCredited',
  'AccountDebited',
  'BalanceAdjusted',
  'StaffTransactionPosted',
  'TransactionReversed',
  'InterestAccrued',
  'InterestMonthClosed',
]);

/** The interest of every account replayed from the log with the domain's pure book, and each day's accrual. */
export class InterestReplay {
  readonly book: InterestBook = createInterestBook();
  readonly days = new Map<string, DayAccrual>();

  add(recorded: RecordedEvent, event: BankEvent): void {
    const source = { streamId: recorded.streamId, recordedAt: recorded.created.toISOString() };
    if (event.type === 'InterestAccrued') {
      this.days.set(event.data.businessDate, this.book.accrue(event.data.businessDate, event.data.rates));
      return;
    }
    this.book.apply(event, source);
  }
}

interface InterestAccountRow {
  user_id: string;
  account: 'savings' | 'checking';
  balance_cents: string;
  month_units: string;
  carry_units: string;
  booked_cents: string;
  paid_cents: string;
}

interface InterestDayRow {
  business_date: string;
  accounts: number;
  accrued_units: string;
  booked_cents: string;
}

export interface InterestSnapshot {
  readonly accounts: readonly InterestAccountRow[];
  readonly days: readonly InterestDayRow[];
}

/** rm.interest_accrued and rm.interest_days (in the caller's snapshot). */
export async function readInterestSnapshot(client: pg.ClientBase, tables: ReadModelTables): Promise<InterestSnapshot> {
  const accounts = await client.query<InterestAccountRow>(
    `SELECT user_id, account, balance_cents::text, month_units::text, carry_units::text, booked_cents::text, paid_cents::text FROM ${tables.interestAccrued}`,
  );
  const days = await client.query<InterestDayRow>(
    `SELECT to_char(business_date, 'YYYY-MM-DD') AS business_date, accounts, accrued_units::text, booked_cents::text FROM ${tables.interestDays}`,
  );
  return { accounts: accounts.rows, days: days.rows };
}

/**
 * Each account's interest in the read model against the replay: the month's units, the carry, the cents booked and
 * paid this month, and (once a day has accrued) the end-of-day balance of the last accrual; each accrued day's
 * totals. Fields: `interest.<account>.<field>`, `interestDays[<date>].<field>`.
 */
export function compareInterest(replay: InterestReplay, snapshot: InterestSnapshot, note: (mismatch: VerifyMismatch) => void): void {
  const expected = new Map(replay.book.accounts());
  const accrued = replay.book.lastAccrued() !== null;
  for (const row of snapshot.accounts) {
    const key = `${row.user_id}:${row.account}`;
    const want = expected.get(key);
    expected.delete(key);
    const stream = `account-${row.user_id}`;
    const got = { monthUnits: row.month_units, carryUnits: row.carry_units, bookedCents: row.booked_cents, paidCents: row.paid_cents, balanceCents: row.balance_cents };
    if (!want) {
      // A row the log has no account for: only a migrated bank's zero row may be so.
      if (Object.values(got).some((value) => value !== '0')) note({ userId: row.user_id, stream, field: `interest.${row.account}`, expected: null, actual: 'present' });
      continue;
    }
    const wanted: Record<string, string> = {
      monthUnits: String(want.monthUnits),
      carryUnits: String(want.carryUnits),
      bookedCents: String(want.bookedCents),
      paidCents: String(want.paidCents),
      ...(accrued ? { balanceCents: String(want.balanceCents) } : {}),
    };
    for (const [field, value] of Object.entries(wanted)) {
      const actual = got[field as keyof typeof got];
      if (actual !== value) note({ userId: row.user_id, stream, field: `interest.${row.account}.${field}`, expected: value, actual });
    }
  }
  for (const [key, want] of expected) {
    const [userId = '', account = ''] = key.split(':');
    const zero = want.monthUnits === 0n && want.carryUnits === 0n && want.bookedCents === 0n && want.paidCents === 0n;
    if (!zero) note({ userId, stream: `account-${userId}`, field: `interest.${account}`, expected: 'present', actual: null });
  }

  const days = new Map(snapshot.days.map((row) => [row.business_date, row]));
  for (const [date, day] of replay.days) {
    const row = days.get(date);
    days.delete(date);
    if (!row) {
      note({ userId: '', stream: 'businessDays', field: `interestDays[${date}]`, expected: 'present', actual: null });
      continue;
    }
    const pairs: [string, string, string][] = [
      ['accounts', String(day.accounts), String(row.accounts)],
      ['accruedUnits', String(day.accruedUnits), row.accrued_units],
      ['bookedCents', String(day.bookedCents), row.booked_cents],
    ];
    for (const [field, want, actual] of pairs) if (want !== actual) note({ userId: '', stream: 'businessDays', field: `interestDays[${date}].${field}`, expected: want, actual });
  }
  for (const date of days.keys()) note({ userId: '', stream: 'businessDays', field: `interestDays[${date}]`, expected: null, actual: 'present' });
}
