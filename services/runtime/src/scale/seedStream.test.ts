import { describe, expect, it } from 'vitest';
import { isoMicros } from './seedStream';

describe('isoMicros', () => {
  const midnight = Date.parse('2025-01-01T00:00:00.000Z') * 1000;

  it('writes an instant with its six fractional digits, what timestamptz keeps', () => {
    expect(isoMicros(midnight)).toBe('2025-01-01T00:00:00.000000Z');
    expect(isoMicros(midnight + 5)).toBe('2025-01-01T00:00:00.000005Z');
    expect(isoMicros(midnight + 1_234_567)).toBe('2025-01-01T00:00:01.234567Z');
  });

  it('goes back across a second, a day and a year without a negative digit', () => {
    expect(isoMicros(midnight - 1)).toBe('2024-12-31T23:59:59.999999Z');
    expect(isoMicros(midnight - 60_000_001)).toBe('2024-12-31T23:58:59.999999Z');
  });
});
