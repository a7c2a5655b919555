import { schemaIdent } from './readModelSchema';

/**
 * rm.ledger_days.recorded_at: the instant the log recorded the day close (its BusinessDayClosed's `created`), beside
 * the instant it states (`closed_at`, the COB's clock). A trial balance at an instant starts from a close only once
 * that close was recorded (dayCloseQuery.ts): a close covers the log as it stood when it was recorded, which can
 * hold events recorded after its `closed_at` (the moments of its own computation), and, in a history written later
 * than it happened (a generated bank loaded through the store's appends), events recorded long after it. Closes
 * projected before this migration take their `closed_at`; a rebuild fills the column from the log.
 */
export const ledgerDaysRecordedAt = (schemaName: string): string => {
  const s = schemaIdent(schemaName);
  return `
ALTER TABLE ${s}.ledger_days ADD COLUMN recorded_at timestamptz;
UPDATE ${s}.ledger_days SET recorded_at = closed_at;
ALTER TABLE ${s}.ledger_days ALTER COLUMN recorded_at SET NOT NULL;`;
};
