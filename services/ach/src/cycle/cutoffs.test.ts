import { describe, expect, it } from 'vitest';
import { cutoffsPassed } from './cutoffs';

describe('ACH cut-offs', () => {
  it('are the cut-off instants after the last look and up to now, across midnight', () => {
    const cutoffs = ['10:30', '16:00'];
    expect(cutoffsPassed(cutoffs, new Date('2026-11-25T10:29:59Z'), new Date('2026-11-25T10:30:00Z'))).toEqual(['2026-11-25T10:30:00.000Z']);
    expect(cutoffsPassed(cutoffs, new Date('2026-11-25T10:30:00Z'), new Date('2026-11-25T15:59:59Z'))).toEqual([]);
    expect(cutoffsPassed(cutoffs, new Date('2026-11-25T17:00:00Z'), new Date('2026-11-26T11:00:00Z'))).toEqual(['2026-11-26T10:30:00.000Z']);
    expect(cutoffsPassed(cutoffs, new Date('2026-11-25T09:00:00Z'), new Date('2026-11-26T17:00:00Z'))).toHaveLength(4);
    expect(cutoffsPassed(cutoffs, new Date('2026-11-25T09:00:00Z'), new Date('2026-11-25T09:00:00Z'))).toEqual([]);
  });
});
