import { schemaIdent } from './readModelSchema';

/**
 * Migration 12: room on the page for the rows the projector updates in place.
 *
 * A row updated without changing an indexed column is a HOT update (heap-only tuple) when its page has room for the
 * new version: no index is touched. A full page sends the new version to another page, and every index of the table
 * gets an entry for it. The tables filled by inserts (and by a rebuild's COPY) are packed to 100 % by default, so
 * an update of a row on a full page was HOT only once pruning had freed room on it.
 *
 * - rm.users: a customer's block, verification and profile edits; seven indexes, one of them the trigram GIN of the
 *   admin search (fastupdate off), which a non-HOT update fills with every trigram of the row again (about a
 *   millisecond a row, measured: docs/benchmarks.md). Only an edit of a searched column (name, e-mail, phone,
 *   account number) has to touch it. 80 %.
 * - rm.transactions: a pending debit completed, failed or reversed (one update in a row's life, soon after its
 *   insert, so the room is needed only on the pages being filled); three secondary indexes. 90 %.
 * - rm.accounts, rm.beneficiaries, rm.contacts, rm.standing_orders: updated in place again and again. 80 %.
 *
 * rm.transfers is left packed: its status is in an index (the open transfers), so a status change is never HOT.
 * A fillfactor applies to pages filled from now on: a live schema's pages filled before it stay packed until a rebuild.
 */
export const FILLFACTORS: Readonly<Record<string, number>> = {
  users: 80,
  transactions: 90,
  accounts: 80,
  beneficiaries: 80,
  contacts: 80,
  standing_orders: 80,
};

export const roomForUpdates = (schemaName: string): string => {
  const s = schemaIdent(schemaName);
  return Object.entries(FILLFACTORS)
    .map(([table, fillfactor]) => `ALTER TABLE ${s}.${table} SET (fillfactor = ${fillfactor});`)
    .join('\n');
};
