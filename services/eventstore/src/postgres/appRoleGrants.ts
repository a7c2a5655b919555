import { quoteIdent } from '@bank/platform';
import { DEFAULT_SCHEMA, eventStoreSchema } from './eventStoreSchema';

/**
 * What a least-privilege application role needs of the PostgreSQL event store, and nothing more (docs/operations.md,
 * "A least-privilege database role"): read the events and append them through `append_batch` — SELECT and INSERT on
 * `events` (no UPDATE, DELETE or TRUNCATE), SELECT, INSERT and UPDATE on `streams` (the compare-and-set guard), the
 * global sequence. The schema and its objects stay owned by another role (which runs ensureEventStoreSchema on an
 * upgrade), so the application cannot disable the append-only trigger or alter the tables either.
 */
export function eventStoreAppRoleGrantsSql(role: string, schemaName: string = DEFAULT_SCHEMA): string {
  const s = eventStoreSchema(schemaName);
  const r = quoteIdent(role);
  return [
    `REVOKE ALL ON ALL TABLES IN SCHEMA ${s.schema} FROM PUBLIC, ${r};`,
    `GRANT USAGE ON SCHEMA ${s.schema} TO ${r};`,
    `GRANT SELECT, INSERT ON ${s.events} TO ${r};`,
    `GRANT SELECT, INSERT, UPDATE ON ${s.streams} TO ${r};`,
    `GRANT USAGE, SELECT ON SEQUENCE ${s.sequence} TO ${r};`,
    `GRANT EXECUTE ON FUNCTION ${s.appendFunction}(jsonb) TO ${r};`,
  ].join('\n');
}
