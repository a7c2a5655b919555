import { defineProjection, updateExistingRow, streamOwner, type ProjectedEvent, type ProjectionDb } from './projection';

type MoneyEventType = 'AccountCredited' | 'AccountDebited' | 'BalanceAdjusted' | 'StaffTransactionPosted' | 'TransactionReversed';

/** A money event sets the moved balance to the event's `balanceAfterCents` (absolute, so idempotent). */
async function setBalance(event: ProjectedEvent<MoneyEventType>, db: ProjectionDb): Promise<void> {
  const userId = streamOwner(event);
  const column = event.data.account === 'savings' ? 'savings_cents' : 'checking_cents';
  await updateExistingRow(
    db,
    event,
    db.tables.accounts,
    userId,
    `UPDATE ${db.tables.accounts} SET ${column} = $3, updated_at = $4, last_position = $2
      WHERE user_id = $1 AND last_position < $2`,
    [userId, event.positionText, event.data.balanceAfterCents, event.data.occurredAt],
    'user_id',
  );
}

/** rm.accounts: the two balances of each account stream. */
export const accountsProjection = defineProjection('accounts', {
  async AccountOpened(event, db) {
    const d = event.data;
    await db.execute(
      `INSERT INTO ${db.tables.accounts} (user_id, account_number, opened_at, updated_at, last_position)
       VALUES ($1, $2, $3, $3, $4) ON CONFLICT (user_id) DO NOTHING`,
      [d.userId, d.accountNumber, d.openedAt, event.positionText],
    );
  },
  AccountCredited: setBalance,
  AccountDebited: setBalance,
  BalanceAdjusted: setBalance,
  StaffTransactionPosted: setBalance,
  TransactionReversed: setBalance,
  async AccountClosed(event, db) {
    const userId = streamOwner(event);
    await updateExistingRow(
      db,
      event,
      db.tables.accounts,
      userId,
      `UPDATE ${db.tables.accounts} SET is_closed = true, updated_at = $3, last_position = $2 WHERE user_id = $1 AND last_position < $2`,
      [userId, event.positionText, event.data.closedAt],
      'user_id',
    );
  },
});
