import fc from 'fast-check';

/**
 * Arbitraries (fast-check) for hostile requests: JSON bodies built as text so that they can hold what
 * JSON.stringify cannot write (1e309, -0, a `__proto__` key, duplicate keys, nesting thousands deep), header values
 * and path or query parameters.
 */

/** A number or token written into the JSON text as it is. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A JSON object as its list of entries (keys may repeat, and may be __proto__). */
export class Entries {
  constructor(readonly list: readonly (readonly [string, Hostile])[]) {}
}

export type Hostile = null | boolean | number | string | RawJson | Entries | readonly Hostile[];

export function toJsonText(value: Hostile): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof Entries) return `{${value.list.map(([key, item]) => `${JSON.stringify(key)}:${toJsonText(item)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  return JSON.stringify(value) ?? 'null';
}

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];
/** Keys that would matter if a route merged the body into something it trusts. */
const PRIVILEGE_KEYS = ['isAdmin', 'role', 'userId', '_id', 'balance', 'savings', 'checking', 'status', 'adminId', 'passwordHash', 'pinHash'];

const unicodeText = fc.string({ unit: 'grapheme', maxLength: 40 });
const binaryText = fc.string({ unit: 'binary', maxLength: 40 });
const trickyText = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\u202e\u0041\u0042',
  '\ud800',
  '\udfff\ud800',
  '😀👩‍👩‍👧‍👦',
  'ｅｘａｍｐｌｅ＠ｂａｎｋ．ｃｏｍ',
  'a@b.co\u0000.evil',
  "'; DROP TABLE rm.users; --",
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '%00%2e%2e%2f',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x10',
  '000000',
  '123456',
  '99999999999999999999999',
  '2024-02-30',
  '0000-00-00',
  '9999-12-31T23:59:59Z',
  'data:image/png;base64,',
  'data:image/png;base64,iVBORw0KGgo=',
  'data:text/html;base64,PGgxPg==',
  '__proto__',
  'savings',
  'checking',
);
/** Long strings: most under the 100 kB body limit, some over it. */
const hugeText = fc.tuple(fc.integer({ min: 2_000, max: 120_000 }), fc.constantFrom('A', 'é', '😀', '9', '\\', '"')).map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)));
const hostileText = fc.oneof({ weight: 4, arbitrary: trickyText }, { weight: 3, arbitrary: unicodeText }, { weight: 2, arbitrary: binaryText }, { weight: 1, arbitrary: hugeText });

const rawNumbers = fc.constantFrom('1e309', '-1e309', '-0', '-0.0', '0.001', '1E400', '1e-400', '123456789012345678901234567890', '0.1e1', '-1', '4.999', '1000000000.01').map((text) => new RawJson(text));
const hostileNumber = fc.oneof(
  rawNumbers,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 0.001, 0.005, 1.005, -1, 1e21, Number.MAX_SAFE_INTEGER + 2, 1e-7, 2 ** 53, 1_000_000_000.01),
);
const hostileKey = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS, ...PRIVILEGE_KEYS) }, { weight: 1, arbitrary: unicodeText }, { weight: 1, arbitrary: trickyText });

const scalar: fc.Arbitrary<Hostile> = fc.oneof(fc.constant(null), fc.boolean(), hostileNumber, hostileText);

/** Any JSON value, shallow (deep nesting has an arbitrary of its own). */
export const hostileValue: fc.Arbitrary<Hostile> = fc.letrec<{ value: Hostile }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: scalar },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 }).map((list) => new Entries(list)) },
  ),
})).value;

/** Arrays or objects nested 33 to 20 000 deep. */
export const deepNesting: fc.Arbitrary<Hostile> = fc
  .tuple(fc.integer({ min: 33, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) => new RawJson(arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));

/** The subset of JSON Schema that z.toJSONSchema writes for our request bodies. */
export interface JsonSchema {
  readonly type?: string;
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly pattern?: string;
  readonly format?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
}

/** A value the schema would (mostly) accept, so that a request gets past the first check to the next one. */
function plausible(schema: JsonSchema): fc.Arbitrary<Hostile> {
  if (schema.enum) return fc.constantFrom(...(schema.enum as Hostile[]));
  if (schema.const !== undefined) return fc.constant(schema.const as Hostile);
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length) return fc.oneof(...options.map(plausible));
  switch (schema.type) {
    case 'string':
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length <= (schema.maxLength ?? 200));
      if (schema.format === 'email') return fc.constantFrom('someone@example.com', 'A.B+c@Example.COM');
      return fc.oneof(fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 30) }), fc.constantFrom('1990-05-17', '2025-01-01', '1234567890', 'passport'));
    case 'integer':
    case 'number':
      return fc.integer({ min: Math.max(schema.minimum ?? -5, -1e6), max: Math.min(schema.maximum ?? 5_000, 1e9) });
    case 'boolean':
      return fc.boolean();
    case 'object':
      return objectFor(schema);
    default:
      // Unconstrained in the schema (e.g. an amount that may be a number or a string).
      return fc.oneof(fc.integer({ min: -10, max: 100_000 }), fc.double({ min: -1, max: 1e6, noNaN: true }), fc.constantFrom('12.34', '1', '0.01'), rawNumbers);
  }
}

/** An object with the schema's fields, each plausible, hostile or missing, plus a few hostile extra fields. */
function objectFor(schema: JsonSchema): fc.Arbitrary<Hostile> {
  const fields = Object.entries(schema.properties ?? {}).map(([name, field]) =>
    fc.oneof(
      { weight: 5, arbitrary: plausible(field).map((value) => [[name, value] as const]) },
      { weight: 3, arbitrary: hostileValue.map((value) => [[name, value] as const]) },
      { weight: 2, arbitrary: fc.constant([]) },
    ),
  );
  const extras = fc.array(fc.tuple(hostileKey, hostileValue), { maxLength: 3 });
  return fc.tuple(fc.tuple(...fields), extras).map(([chosen, extra]) => new Entries([...chosen.flat(), ...extra]));
}

/** Request bodies for a route whose body follows `schema` (undefined: a route without a body, which gets junk anyway). */
export function hostileBody(schema: JsonSchema | undefined): fc.Arbitrary<Hostile> {
  return fc.oneof(
    { weight: schema ? 8 : 1, arbitrary: schema ? objectFor(schema) : fc.constant(new Entries([])) },
    { weight: 2, arbitrary: hostileValue },
    { weight: 1, arbitrary: deepNesting },
    { weight: 1, arbitrary: fc.array(hostileValue, { minLength: 1, maxLength: 3 }) },
  );
}

/** Characters Node lets a client put in a header value (visible ASCII, space, tab, Latin-1). */
export const headerText = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 300 }),
  fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((code) => String.fromCharCode(code)), minLength: 1, maxLength: 20 }),
  fc.constantFrom('', ' ', 'null', 'Bearer', 'Bearer ', 'Bearer a.b.c', 'Basic YWRtaW46YWRtaW4=', 'bearer  x', '-1', '0', '1e309', '99999999999999999999999', 'x'.repeat(4000)),
);

/** Text as it goes into a URL (lone surrogates cannot be percent-encoded: they become U+FFFD). */
export function encodeForUrl(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
}

/** A path segment, already encoded: unicode, traversal, broken percent-encodings, long. */
export const hostileSegment = fc.oneof(
  fc.oneof(
    trickyText.filter((text) => text.length > 0),
    unicodeText.filter((text) => text.length > 0),
    fc.string({ minLength: 1, maxLength: 500 }),
    fc.constantFrom('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '7d1f0c55-5b0a-4a43-9a3a-6f4f7e1d2c3b', '..', '.', 'admin', 'me'),
  ).map(encodeForUrl),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '%C0%AF', '%00', '..%2f..%2fetc%2fpasswd', '%252e%252e', '%FF%FE', '%ED%A0%80'),
);

/** A query string: known and unknown names, repeated names (Express then gives arrays), hostile values. */
export function hostileQuery(names: readonly string[]): fc.Arbitrary<string> {
  const name = fc.oneof(fc.constantFrom(...(names.length ? names : ['q'])), fc.constantFrom('__proto__', 'constructor', 'a[b]', 'limit[]', ''), unicodeText);
  const value = fc.oneof(trickyText, unicodeText, fc.string({ maxLength: 300 }), fc.integer().map(String), fc.constantFrom('-1', '0', '1e309', '1.5', '201', ' 5', '5abc'));
  const raw = fc.constantFrom('%', 'limit=%zz', 'a=%E0%A4%A', '=', '&&', 'limit=1&limit=2', 'before=%00');
  const pairs = fc.array(fc.tuple(name, value), { maxLength: 5 }).map((list) => list.map(([key, item]) => `${encodeForUrl(key)}=${encodeForUrl(item)}`).join('&'));
  return fc.oneof({ weight: 4, arbitrary: pairs }, { weight: 1, arbitrary: fc.tuple(pairs, raw).map(([text, junk]) => (text ? `${text}&${junk}` : junk)) });
}
