import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projectorTestDatabase';
import { copyEncoder } from './columnValues';
import { copyChanges } from './writeChanges';
import { BatchChanges, createWriteLayout } from './batchChanges';
import { loadTableCatalog } from './tableCatalog';
import { readModelTables } from '../schema/readModelTables';
import { defineProjection } from '../projections/projection';
import { arrayLiteral, arrayParam, boundValues, quoteLiteral } from './sqlLiterals';

let db: ProjectorTestDatabase;
let client: pg.PoolClient;

/** Text with everything the escapes must handle: quotes, backslashes, tabs, newlines, braces, commas, non-ASCII. */
const text = fc.string({ unit: fc.oneof(fc.constantFrom("'", '"', '\\', '\t', '\n', '\r', '{', '}', ',', ' ', 'NULL', 'é', '😀'), fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' })) });

beforeAll(async () => {
  db = await createProjectorTestDatabase('sql_literals');
  client = await db.pool.connect();
});
afterAll(async () => {
  client.release();
  await db.close();
});

describe('the values the writer writes into SQL and COPY', () => {
  it('come back from PostgreSQL as they were: string literals, array literals and COPY fields', async () => {
    await client.query(`CREATE SCHEMA lit; CREATE TABLE lit.t (id text PRIMARY KEY, note text, doc jsonb, at timestamptz, n bigint, flag boolean, last_position text NOT NULL)`);
    const catalog = await loadTableCatalog(client, 'lit');
    const projection = defineProjection({ name: 'lit', tables: { t: {} }, handlers: {} });
    const layout = createWriteLayout([projection], catalog, readModelTables('lit'));
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(text), { minLength: 1, maxLength: 8 }), text, async (values, single) => {
        const { rows } = await client.query<{ a: (string | null)[]; s: string }>(`SELECT ${arrayLiteral(values)}::text[] AS a, ${quoteLiteral(single)} AS s`);
        expect(rows[0]).toEqual({ a: values, s: single });

        round += 1;
        const changes = new BatchChanges(layout);
        const note = values[0] ?? null;
        const doc = { note, list: values };
        changes.table('t').insert({ id: `${round}:${single}`, note, doc, at: '2025-06-01T10:00:00.000Z', n: round, flag: round % 2 === 0 }, 'p1');
        await copyChanges(client, changes);
        const copied = await client.query(`SELECT note, doc, n, flag, last_position FROM lit.t WHERE id = $1`, [`${round}:${single}`]);
        expect(copied.rows).toEqual([{ note, doc, n: String(round), flag: round % 2 === 0, last_position: 'p1' }]);
      }),
      { numRuns: 150 },
    );
  });

  it('arrays bound as parameters in their array text come back as they were, whatever the strings hold', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(text, { nil: null }), { maxLength: 8 }),
        fc.array(fc.option(fc.maxSafeInteger(), { nil: null }), { maxLength: 6 }),
        fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { maxLength: 4 }),
        fc.array(fc.boolean(), { maxLength: 4 }),
        async (strings, numbers, bigints, flags) => {
          const encoded = boundValues([strings, numbers, bigints, flags]);
          expect(encoded.every((value) => typeof value === 'string')).toBe(true);
          const { rows } = await client.query<{ s: (string | null)[]; n: (string | null)[]; b: string[]; f: boolean[] }>(
            `SELECT $1::text[] AS s, $2::bigint[] AS n, $3::numeric[]::text[] AS b, $4::boolean[] AS f`,
            encoded,
          );
          expect(rows[0]).toEqual({ s: strings, n: numbers.map((n) => (n === null ? null : String(n))), b: bigints.map(String), f: flags });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('leaves an array with a Date, an object or a nested array for pg to encode', () => {
    const at = new Date('2025-06-01T10:00:00.000Z');
    const values = [['a', at], [{ a: 1 }], [['x']], 'plain'];
    const bound = boundValues(values);
    expect(bound[0]).toBe(values[0]);
    expect(bound[1]).toBe(values[1]);
    expect(bound[2]).toBe(values[2]);
    expect(bound[3]).toBe('plain');
    expect(arrayParam([])).toBe('{}');
    expect(arrayParam(['2025-06-01', 'NULL', 'a b,{c}'])).toBe('{"2025-06-01","NULL","a b,{c}"}');
    expect(arrayParam(['a"b', 'c\\d', null, 7, true, ''])).toBe('{"a\\"b","c\\\\d",NULL,7,t,""}');
  });

  it('COPY writes NULL as \\N and booleans as t/f', () => {
    expect(copyEncoder({ name: 'x', type: 'text' })(null)).toBe('\\N');
    expect(copyEncoder({ name: 'x', type: 'boolean' })(false)).toBe('f');
    expect(copyEncoder({ name: 'x', type: 'text' })('a\tb\\c\nd')).toBe('a\\tb\\\\c\\nd');
  });
});
