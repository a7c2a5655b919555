import { merchantCount } from './seedPlan';

/** A block of customers generated together by one thread (seedWorkers.ts): indexes `start` to `end`, end excluded. */
export interface SeedBlock {
  readonly start: number;
  readonly end: number;
}

/**
 * The customers cut into the blocks the generating threads share (block b to thread b mod threads): each merchant a
 * block of its own, then blocks of `blockSize`. A merchant's history is thousands of times a customer's (at a million
 * customers, ten merchants hold about 1.5 million events, and generating them took 76 s): in one block, the merchants
 * all went to the first thread while the others, a few blocks ahead, waited for it. Block order is customer order,
 * so the log is the same however the customers are cut.
 */
export function seedBlocks(customers: number, blockSize: number): SeedBlock[] {
  if (!Number.isSafeInteger(blockSize) || blockSize < 1) throw new RangeError(`blockSize must be a positive integer, got ${blockSize}`);
  const blocks: SeedBlock[] = [];
  const merchants = merchantCount(customers);
  for (let index = 0; index < merchants; index += 1) blocks.push({ start: index, end: index + 1 });
  for (let start = merchants; start < customers; start += blockSize) blocks.push({ start, end: Math.min(customers, start + blockSize) });
  return blocks;
}
