/** Trigrams need three characters: a shorter search cannot use the trigram index, so it matches prefixes instead. */
export const TRIGRAM_MIN_LENGTH = 3;

/** `%` and `_` typed by a person are literal characters, not LIKE wildcards. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * The SQL condition of a customer search over `rm.users` aliased `alias` (docs/api.md, "Search"): three characters
 * or more match anywhere in the name, e-mail, phone or account number (the trigram GIN index
 * users_search_trgm_idx); one or two characters match the start of the e-mail or the account number (the prefix
 * indexes users_email_prefix_idx, users_account_prefix_idx). Every index is partial on role = 'customer': the
 * query must say `role = 'customer'` too. `param` adds a value and returns its placeholder.
 */
export function customerSearchSql(alias: string, search: string, param: (value: unknown) => string): string {
  const text = escapeLike(search.trim().toLowerCase());
  if (search.trim().length >= TRIGRAM_MIN_LENGTH) return `${alias}.search_text LIKE ${param(`%${text}%`)}`;
  const prefix = param(`${text}%`);
  return `(${alias}.email_lower LIKE ${prefix} OR ${alias}.account_number LIKE ${prefix})`;
}
