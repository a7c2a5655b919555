import { describe, expect, it } from 'vitest';
import { parseInstant } from './queryParams';

describe('parseInstant', () => {
  it('reads ISO-8601 dates and date-times (a date alone is midnight UTC)', () => {
    expect(parseInstant('2025-03-01')?.toISOString()).toBe('2025-03-01T00:00:00.000Z');
    expect(parseInstant(' 2025-03-01T12:30:00Z ')?.toISOString()).toBe('2025-03-01T12:30:00.000Z');
    expect(parseInstant('2024-02-29T23:59:59.999+02:00')?.toISOString()).toBe('2024-02-29T21:59:59.999Z');
  });

  it('refuses a day that does not exist, which the engine would roll into the next month', () => {
    for (const text of ['2025-02-29', '2025-02-30T00:00:00Z', '2025-04-31T12:00:00Z', '2025-13-01', '2025-01-01T25:00:00Z', 'yesterday', '', 20250301]) {
      expect(parseInstant(text), String(text)).toBeUndefined();
    }
  });
});
