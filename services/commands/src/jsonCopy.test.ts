import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonCopy } from './jsonCopy';

const roundTrip = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/**
 * The same JSON value, member by member: the same kinds, members in the same order, numbers the same (-0 is not 0),
 * plain objects (prototype Object.prototype) and arrays. (`toStrictEqual` cannot say it of an object with a member
 * named "constructor": it compares the members as the objects' constructors.)
 */
function expectSameValue(actual: unknown, expected: unknown, path = '$'): void {
  if (typeof expected !== 'object' || expected === null) {
    expect(Object.is(actual, expected), `${path}: ${String(actual)} against ${String(expected)}`).toBe(true);
    return;
  }
  expect(typeof actual === 'object' && actual !== null, `${path} is an object`).toBe(true);
  expect(Array.isArray(actual), `${path} is an array`).toBe(Array.isArray(expected));
  expect(Object.getPrototypeOf(actual), `${path}'s prototype`).toBe(Object.getPrototypeOf(expected));
  const keys = Object.keys(expected);
  expect(Object.keys(actual as object), `${path}'s members`).toEqual(keys);
  for (const key of keys) {
    const member = (object: unknown) => Object.getOwnPropertyDescriptor(object, key)?.value as unknown;
    expectSameValue(member(actual), member(expected), `${path}.${key}`);
  }
}

/** Values JSON.stringify accepts, with what it drops or changes: undefined, functions, non-finite numbers, -0, Dates. */
const loose = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.double(),
    fc.integer(),
    fc.constant(-0),
    fc.constant(undefined),
    fc.constant(() => 1),
    fc.date({ noInvalidDate: true }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'toString', '0', '10', 'constructor')), tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('jsonCopy', () => {
  it('gives what the JSON round trip gives, member order included', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 6 }), loose, { maxKeys: 6 }), (value) => {
        const copy = jsonCopy(value);
        expectSameValue(copy, roundTrip(value));
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('shares nothing with the value it copied', () => {
    const value = { nested: { list: [{ a: 1 }] } };
    const copy = jsonCopy(value) as typeof value;
    copy.nested.list[0]!.a = 2;
    expect(value.nested.list[0]!.a).toBe(1);
  });

  it('copies a "__proto__" member as a member, leaving the prototype alone', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    const copy = jsonCopy(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expectSameValue(copy, roundTrip(value));
  });

  it('turns -0 and non-finite numbers into what their JSON text reads back as', () => {
    expect(jsonCopy({ a: -0, b: Number.NaN, c: Number.POSITIVE_INFINITY, d: [Number.NEGATIVE_INFINITY, undefined] })).toStrictEqual({ a: 0, b: null, c: null, d: [null, null] });
    expect(Object.is((jsonCopy({ a: -0 }) as { a: number }).a, 0)).toBe(true);
  });

  it('hands values with a JSON form of their own to JSON: Dates, toJSON, class instances, Maps', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly hidden?: undefined,
      ) {}
    }
    const value = { at: new Date(Date.UTC(2026, 0, 2)), custom: { toJSON: () => 'custom' }, point: new Point(1), map: new Map([['a', 1]]), boxed: Object('text') as unknown };
    expectSameValue(jsonCopy(value), roundTrip(value));
    expect((jsonCopy(value) as { at: unknown }).at).toBe('2026-01-02T00:00:00.000Z');
  });

  it('refuses what JSON.stringify refuses: a bigint, a cycle', () => {
    expect(() => jsonCopy({ a: 1n })).toThrow(TypeError);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(() => jsonCopy(cyclic)).toThrow(TypeError);
  });

  it('copies a value met twice without a cycle, as JSON does', () => {
    const shared = { a: 1 };
    expect(jsonCopy({ x: shared, y: [shared, shared] })).toStrictEqual({ x: { a: 1 }, y: [{ a: 1 }, { a: 1 }] });
  });
});
