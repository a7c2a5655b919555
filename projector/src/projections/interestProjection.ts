import { InterestBatch } from './interest/interestBatch';
import { defineProjection, streamOwner, type ProjectedEvent, type ProjectionDb } from './projection';

type MoneyEventType = 'AccountCredited' | 'AccountDebited' | 'BalanceAdjusted' | 'StaffTransactionPosted' | 'TransactionReversed';

/** The business date of a money event (recorded before the books: the UTC date it was recorded, as the ledger's). */
function businessDateOf(event: ProjectedEvent<MoneyEventType>): string {
  return event.data.businessDate ?? event.created.toISOString().slice(0, 10);
}

function money(event: ProjectedEvent<MoneyEventType>, db: ProjectionDb): void {
  const d = event.data;
  const userId = streamOwner(event);
  const businessDate = businessDateOf(event);
  const interest = event.type === 'AccountCredited' ? (event as ProjectedEvent<'AccountCredited'>).data.interest : undefined;
  db.batch<InterestBatch>().money(
    { userId, account: d.account, businessDate, balanceAfterCents: d.balanceAfterCents, position: event.positionText },
    interest
      ? {
          transactionId: d.transactionId,
          userId,
          account: d.account,
          month: interest.month,
          businessDate,
          amountCents: d.amountCents,
          accruedUnits: interest.accruedUnits,
          carryUnits: interest.carryUnits,
        }
      : undefined,
  );
}

/**
 * Savings interest (docs/interest.md): the interest-payable subledger in rm.interest_* — the day balances of the
 * money events, each day's accrual of every account (InterestAccrued), the booking (InterestBooked), the payments
 * (AccountCredited with `interest`) and the month's roll of the carry (InterestMonthClosed). Everything goes through
 * one batch writer that keeps the log's order (InterestBatch).
 */
export const interestProjection = defineProjection({
  name: 'interest',
  tables: {},
  statementTables: ['interest_accounts', 'interest_day_balances', 'interest_days', 'interest_months', 'interest_payments'],
  createBatch: () => new InterestBatch(),
  handlers: {
    AccountOpened(event, db) {
      db.batch<InterestBatch>().opened(event.data.userId, event.positionText);
    },
    AccountCredited: money,
    AccountDebited: money,
    BalanceAdjusted: money,
    StaffTransactionPosted: money,
    TransactionReversed: money,
    InterestAccrued(event, db) {
      const d = event.data;
      db.batch<InterestBatch>().accrued(d.businessDate, d.rates.savings, d.rates.checking, event.positionText);
    },
    InterestBooked(event, db) {
      const d = event.data;
      db.batch<InterestBatch>().booked(d.businessDate, { accounts: d.accounts, accruedUnits: d.accruedUnits, bookedCents: d.bookedCents }, event.positionText);
    },
    InterestMonthClosed(event, db) {
      const d = event.data;
      db.batch<InterestBatch>().monthClosed(d.month, d.businessDate, d.paidAccounts, d.paidCents, event.positionText);
    },
  },
});
