import { journalEntryOf, postingEventTypes, type BankEvent } from '@bank/domain';
import { JournalBatch } from './ledger/journalBatch';
import { businessDayHandlers } from './ledger/businessDayHandlers';
import { defineProjection, type ProjectedEvent, type ProjectionDb, type ProjectionHandlers } from './projection';

/**
 * A money event's journal entry, as the domain's one posting rule gives it (journalEntryOf): its lines into
 * rm.journal_lines, its sums into rm.ledger_accounts, its clearing moves into rm.clearing_items — folded over the
 * batch and written as one statement (JournalBatch).
 */
function post(event: ProjectedEvent, db: ProjectionDb): void {
  const recordedAt = event.created.toISOString();
  // A projected event is the domain's event (type and data, validated) with where it is stored.
  const entry = journalEntryOf(event as unknown as BankEvent, { streamId: event.streamId, recordedAt });
  if (!entry) return;
  db.batch<JournalBatch>().add({ positionText: event.positionText, id: event.id, recordedAt }, entry);
}

const postingHandlers = Object.fromEntries([...postingEventTypes].map((type) => [type, post])) as ProjectionHandlers;

/** The books (docs/ledger.md): the journal and the ledger's totals, the clearing items, the day closes, the business date. */
export const ledgerProjection = defineProjection({
  name: 'ledger',
  tables: {},
  statementTables: ['journal_lines', 'ledger_accounts', 'clearing_items', 'ledger_days', 'business_date'],
  appendOnlyTables: ['journal_lines'],
  createBatch: () => new JournalBatch(),
  handlers: { ...postingHandlers, ...businessDayHandlers },
});
