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
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  // Keys in UTF-16 code-unit order (the default sort's), undefined values left out; built in one pass (every append
  // hashes its events' canonical JSON, the generated bank's millions of them too).
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  let text = '{';
  for (const key of keys) {
    const item = object[key];
    if (item === undefined) continue;
    if (text.length > 1) text += ',';
    text += `${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${text}}`;
}
