/**
 * JSON with object keys sorted at every depth and no whitespace: the same value always gives the same text,
 * whatever order its keys were written in (PostgreSQL's jsonb, for one, reorders them).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('canonicalJson: non-finite number');
    if (typeof value === 'bigint') return JSON.stringify(value.toString());
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) return arrayJson(value);
  const object = value as Record<string, unknown>;
  return membersJson(object, Object.keys(object).sort(), undefined, undefined);
}

/**
 * canonicalJson of `object` with `key` set to `value` and `omit` left out, without building that object (the hash
 * chain's metadata: its `hash` left out, `prevHash` the link's).
 */
export function canonicalJsonWith(object: Record<string, unknown>, omit: string, key: string, value: unknown): string {
  const keys = Object.keys(object).filter((name) => name !== omit && name !== key);
  keys.push(key);
  return membersJson(object, keys.sort(), key, value);
}

function arrayJson(items: readonly unknown[]): string {
  let text = '[';
  for (let i = 0; i < items.length; i += 1) {
    if (i > 0) text += ',';
    const item = items[i];
    text += canonicalJson(item === undefined ? null : item);
  }
  return `${text}]`;
}

/**
 * The object's members in the order of `keys` (sorted: UTF-16 code-unit order, the default sort's), undefined values
 * left out; `key`, when given, takes `value` instead of the object's own. Built in one pass: every append hashes its
 * events' canonical JSON, the generated bank's millions of them too.
 */
function membersJson(object: Record<string, unknown>, keys: readonly string[], key: string | undefined, value: unknown): string {
  let text = '{';
  for (const name of keys) {
    const item = name === key ? value : object[name];
    if (item === undefined) continue;
    if (text.length > 1) text += ',';
    text += quotedKey(name);
    text += ':';
    text += canonicalJson(item);
  }
  return `${text}}`;
}

/** Object keys repeat across events (the same few dozen field names): each is quoted once. */
const QUOTED_KEYS = new Map<string, string>();
const QUOTED_KEYS_KEPT = 4_096;

function quotedKey(name: string): string {
  let quoted = QUOTED_KEYS.get(name);
  if (quoted === undefined) {
    quoted = JSON.stringify(name);
    if (QUOTED_KEYS.size < QUOTED_KEYS_KEPT) QUOTED_KEYS.set(name, quoted);
  }
  return quoted;
}
