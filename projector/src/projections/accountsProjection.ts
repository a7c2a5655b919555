import { defineProjection, streamOwner, type ProjectedEvent, type ProjectionDb } from './projection';

type MoneyEventType = 'AccountCredited' | 'AccountDebited' | 'BalanceAdjusted' | 'StaffTransactionPosted' | 'TransactionReversed';

/**
 * A money event sets the moved balance to the event's `balanceAfterCents`: absolute, so idempotent, and within a
 * batch the last money event of an account kind is the one that counts.
 */
function setBalance(event: ProjectedEvent<MoneyEventType>, db: ProjectionDb): void {
  const column = event.data.account === 'savings' ? 'savings_cents' : 'checking_cents';
  db.update('accounts', streamOwner(event), { [column]: event.data.balanceAfterCents, updated_at: event.data.occurredAt });
}

/**
 * rm.accounts: the two balances of each account stream. One row per customer that nearly every money event
 * updates: a rebuild holds its rows in memory and writes each once (heldDuringRebuild).
 */
export const accountsProjection = defineProjection({
  name: 'accounts',
  tables: { accounts: { heldDuringRebuild: true } },
  handlers: {
    AccountOpened(event, db) {
      const d = event.data;
      db.insert('accounts', { user_id: d.userId, account_number: d.accountNumber, opened_at: d.openedAt, updated_at: d.openedAt });
    },
    AccountCredited: setBalance,
    AccountDebited: setBalance,
    BalanceAdjusted: setBalance,
    StaffTransactionPosted: setBalance,
    TransactionReversed: setBalance,
    AccountClosed(event, db) {
      db.update('accounts', streamOwner(event), { is_closed: true, updated_at: event.data.closedAt });
    },
  },
});
