import { describe, expect, it } from 'vitest';
import type { Row } from '../changes/tableChanges';
import { accountsProjection } from './accountsProjection';
import type { ProjectedEvent, ProjectionDb } from './projection';

const USER = '00000000-0000-4000-8000-0000000000a1';

/** A db that records the rows and sets the projection gives it. */
function recordingDb(): { db: ProjectionDb; inserted: Row[]; updated: Row[] } {
  const inserted: Row[] = [];
  const updated: Row[] = [];
  const db = {
    insert: (_table: string, row: Row) => void inserted.push(row),
    update: (_table: string, _key: string, set: Row) => void updated.push(set),
  } as unknown as ProjectionDb;
  return { db, inserted, updated };
}

const event = (type: string, data: Record<string, unknown>) => ({ type, data, streamId: `account-${USER}` }) as unknown as ProjectedEvent<never>;

describe('the accounts projection', () => {
  it("opens an account's row with every column its later events set, at the table's defaults", () => {
    const { db, inserted, updated } = recordingDb();
    const handlers = accountsProjection.handlers as Record<string, (event: ProjectedEvent<never>, db: ProjectionDb) => void>;
    handlers.AccountOpened!(event('AccountOpened', { userId: USER, accountNumber: '1234567890', openedAt: '2026-01-02T10:00:00.000Z' }), db);
    for (const account of ['savings', 'checking']) {
      for (const type of ['AccountCredited', 'AccountDebited', 'BalanceAdjusted', 'StaffTransactionPosted', 'TransactionReversed']) {
        handlers[type]!(event(type, { account, balanceAfterCents: 500, occurredAt: '2026-01-03T10:00:00.000Z' }), db);
      }
    }
    handlers.AccountClosed!(event('AccountClosed', { closedAt: '2026-01-04T10:00:00.000Z' }), db);

    expect(inserted).toEqual([
      { user_id: USER, account_number: '1234567890', savings_cents: 0, checking_cents: 0, is_closed: false, opened_at: '2026-01-02T10:00:00.000Z', updated_at: '2026-01-02T10:00:00.000Z' },
    ]);
    // A rebuild holds the row and merges each update into it: no update adds a column the row did not have.
    const columns = Object.keys(inserted[0]!);
    expect(updated).toHaveLength(11);
    for (const set of updated) expect(columns).toEqual(expect.arrayContaining(Object.keys(set)));
    expect(updated[0]).toEqual({ savings_cents: 500, updated_at: '2026-01-03T10:00:00.000Z' });
    expect(updated[5]).toEqual({ checking_cents: 500, updated_at: '2026-01-03T10:00:00.000Z' });
  });
});
