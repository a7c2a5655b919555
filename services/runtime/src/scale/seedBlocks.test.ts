import { describe, expect, it } from 'vitest';
import { seedBlocks } from './seedBlocks';
import { merchantCount } from './seedPlan';

describe('seedBlocks', () => {
  it('gives each merchant a block of its own, then blocks of the given size', () => {
    expect(seedBlocks(1_000_000, 200).slice(0, 12)).toEqual([
      ...Array.from({ length: 10 }, (_, index) => ({ start: index, end: index + 1 })),
      { start: 10, end: 210 },
      { start: 210, end: 410 },
    ]);
  });

  it('covers every customer once, in order, whatever the sizes', () => {
    for (const customers of [0, 1, 2, 7, 99_999, 100_000, 250_001]) {
      for (const blockSize of [1, 7, 200]) {
        const blocks = seedBlocks(customers, blockSize);
        let next = 0;
        for (const block of blocks) {
          expect(block.start).toBe(next);
          expect(block.end).toBeGreaterThan(block.start);
          expect(block.end - block.start).toBeLessThanOrEqual(block.start < merchantCount(customers) ? 1 : blockSize);
          next = block.end;
        }
        expect(next).toBe(customers);
      }
    }
  });

  it('refuses a block size that is not a positive integer', () => {
    expect(() => seedBlocks(10, 0)).toThrow(RangeError);
  });
});
