import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalJson, canonicalJsonWith } from './canonicalJson';

describe('canonicalJson', () => {
  it('gives the same text whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: 'z' } })).toBe(canonicalJson({ a: { c: 'z', d: [1, { x: 1, y: 2 }] }, b: 1 }));
  });
  it('leaves out undefined properties as JSON does', () => {
    expect(canonicalJson({ a: undefined, b: null })).toBe('{"b":null}');
  });
  it('refuses non-finite numbers', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
  });
});

describe('canonicalJsonWith', () => {
  it('is canonicalJson of the object with one member set and one left out', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.string(), fc.integer(), fc.constant(undefined), fc.constant(null))), fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), fc.oneof(fc.string(), fc.constant(null)), (object, omit, key, value) => {
        const expected: Record<string, unknown> = { ...object };
        delete expected[omit];
        expected[key] = value;
        expect(canonicalJsonWith(object, omit, key, value)).toBe(canonicalJson(expected));
      }),
    );
  });
});
