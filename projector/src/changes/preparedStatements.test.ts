import { describe, expect, it } from 'vitest';
import { MAX_PREPARED, PLAN_GROWTH_MIN_EVENTS, PLAN_LIFETIME_MS, preparable, PreparedStatements } from './preparedStatements';

const typed = (table: string) => ({ text: `INSERT INTO ${table} (id, n) SELECT * FROM unnest($1::uuid[], $2::bigint[])`, values: [['a'], [1]] });

describe('preparable', () => {
  it('takes a statement whose every parameter, 1 to n, has a cast', () => {
    expect(preparable(typed('t'))).toBe(true);
    expect(preparable({ text: 'SELECT $1::text[], $1::text[]', values: [['a']] })).toBe(true);
  });

  it('leaves out a statement with no values, an untyped parameter, a gap, or more values than parameters', () => {
    expect(preparable({ text: 'SELECT 1', values: [] })).toBe(false);
    expect(preparable({ text: 'SELECT pg_notify($1, $2)', values: ['c', 'p'] })).toBe(false);
    expect(preparable({ text: 'SELECT $1::int, $3::int', values: [1, 2, 3] })).toBe(false);
    expect(preparable({ text: 'SELECT $1::int', values: [1, 2] })).toBe(false);
    expect(preparable({ text: 'SELECT $10::int', values: [1] })).toBe(false);
  });
});

describe('PreparedStatements', () => {
  it('prepares a shape once and executes it with its values as literals after that', () => {
    const prepared = new PreparedStatements(() => 0);
    const first: string[] = [];
    prepared.begin(first);
    prepared.add(typed('t'), first);
    expect(first).toEqual(['PREPARE bank_batch_1 AS INSERT INTO t (id, n) SELECT * FROM unnest($1::uuid[], $2::bigint[])', `EXECUTE bank_batch_1(E'{"a"}', E'{"1"}')`]);
    const second: string[] = [];
    prepared.begin(second);
    prepared.add({ ...typed('t'), values: [['b', "o'k"], [2, 3]] }, second);
    expect(second).toEqual([`EXECUTE bank_batch_1(E'{"b","o''k"}', E'{"2","3"}')`]);
  });

  it('writes a statement it cannot prepare inline', () => {
    const prepared = new PreparedStatements(() => 0);
    const parts: string[] = [];
    prepared.add({ text: 'SELECT pg_notify($1, $2)', values: ['channel', 'main 1'] }, parts);
    expect(parts).toEqual(["SELECT pg_notify('channel', 'main 1')"]);
    expect(prepared.size).toBe(0);
  });

  it('deallocates the least recently used shape past its limit', () => {
    const prepared = new PreparedStatements(() => 0);
    const parts: string[] = [];
    prepared.begin(parts);
    for (let i = 0; i < MAX_PREPARED; i += 1) prepared.add(typed(`t${i}`), parts);
    prepared.add(typed('t0'), parts);
    parts.length = 0;
    prepared.add(typed('new'), parts);
    expect(parts[0]).toBe('DEALLOCATE bank_batch_2');
    expect(parts[1]).toMatch(/^PREPARE bank_batch_201 AS INSERT INTO new /);
    expect(prepared.size).toBe(MAX_PREPARED);
  });

  it('drops its plans once they have lived their time, and prepares the shapes again as they come', () => {
    let now = 1_000;
    const prepared = new PreparedStatements(() => now);
    const parts: string[] = [];
    prepared.begin(parts);
    prepared.add(typed('t'), parts);
    now += PLAN_LIFETIME_MS - 1;
    parts.length = 0;
    prepared.begin(parts);
    expect(parts).toEqual([]);
    now += 1;
    prepared.begin(parts);
    prepared.add(typed('t'), parts);
    expect(parts[0]).toBe('DEALLOCATE bank_batch_1');
    expect(parts[1]).toMatch(/^PREPARE bank_batch_2 AS /);
  });

  it('drops its plans when the log has doubled since they were made, and not before', () => {
    const prepared = new PreparedStatements(() => 0);
    const parts: string[] = [];
    prepared.begin(parts, 1_000n);
    prepared.add(typed('t'), parts);
    parts.length = 0;
    prepared.begin(parts, 1_999n);
    prepared.add(typed('t'), parts);
    expect(parts).toEqual([expect.stringMatching(/^EXECUTE bank_batch_1\(/)]);
    parts.length = 0;
    prepared.begin(parts, 2_000n);
    prepared.add(typed('t'), parts);
    expect(parts[0]).toBe('DEALLOCATE bank_batch_1');
    expect(parts[1]).toMatch(/^PREPARE bank_batch_2 AS /);
    // The next doubling is counted from where the plans were made again.
    parts.length = 0;
    prepared.begin(parts, 3_999n);
    expect(parts).toEqual([]);
    prepared.begin(parts, 4_000n);
    expect(parts).toEqual(['DEALLOCATE bank_batch_2']);
  });

  it('waits for PLAN_GROWTH_MIN_EVENTS before a young log counts as grown', () => {
    const prepared = new PreparedStatements(() => 0);
    const parts: string[] = [];
    prepared.begin(parts, 10n);
    prepared.add(typed('t'), parts);
    parts.length = 0;
    prepared.begin(parts, 10n + PLAN_GROWTH_MIN_EVENTS - 1n);
    expect(parts).toEqual([]);
    prepared.begin(parts, 10n + PLAN_GROWTH_MIN_EVENTS);
    expect(parts).toEqual(['DEALLOCATE bank_batch_1']);
  });
});
