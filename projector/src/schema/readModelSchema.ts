/** The schema the API reads: every read-model table lives in it, and a rebuild swaps a fresh copy in under this name. */
export const READ_MODEL_SCHEMA = 'rm';

/** Prefix of the schemas a rebuild builds into (`rm_build_<n>`) and of the schema it swaps out (`rm_old_<n>`). */
export const BUILD_SCHEMA_PREFIX = `${READ_MODEL_SCHEMA}_build_`;
export const OLD_SCHEMA_PREFIX = `${READ_MODEL_SCHEMA}_old_`;

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Checks that `name` is a plain lower-case SQL identifier and returns it quoted. */
export function schemaIdent(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Read-model schema name must be a lower-case SQL identifier, got ${JSON.stringify(name)}`);
  return `"${name}"`;
}
