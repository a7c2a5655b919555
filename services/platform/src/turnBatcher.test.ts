import { describe, expect, it } from 'vitest';
import { createTurnBatcher } from './turnBatcher';

function recorder(fail?: (requests: readonly number[]) => boolean) {
  const calls: Array<{ kind: 'one' | 'many'; requests: number[] }> = [];
  const batcher = createTurnBatcher<number, { of: number }>({
    runOne: async (request) => {
      calls.push({ kind: 'one', requests: [request] });
      if (fail?.([request])) throw new Error('refused');
      return { of: request };
    },
    runMany: async (requests) => {
      calls.push({ kind: 'many', requests: [...requests] });
      if (fail?.(requests)) throw new Error('refused');
      return requests.map((request) => ({ of: request }));
    },
    maxBatch: 3,
  });
  return { calls, batcher };
}

describe('the turn batcher', () => {
  it('sends the requests of one turn together, in order, each answered with its own result', async () => {
    const { calls, batcher } = recorder();
    const results = await Promise.all([1, 2, 2].map(batcher));
    expect(calls).toEqual([{ kind: 'many', requests: [1, 2, 2] }]);
    expect(results).toEqual([{ of: 1 }, { of: 2 }, { of: 2 }]);
    expect(results[1]).not.toBe(results[2]);
  });

  it('sends a request alone in its turn as one, and never holds one back for a later turn', async () => {
    const { calls, batcher } = recorder();
    expect(await batcher(7)).toEqual({ of: 7 });
    const first = batcher(8);
    await new Promise((resolve) => setImmediate(resolve));
    const second = batcher(9);
    expect(await Promise.all([first, second])).toEqual([{ of: 8 }, { of: 9 }]);
    expect(calls).toEqual([
      { kind: 'one', requests: [7] },
      { kind: 'one', requests: [8] },
      { kind: 'one', requests: [9] },
    ]);
  });

  it('splits a turn larger than the batch, and a failed statement fails only the requests it carried', async () => {
    const { calls, batcher } = recorder((requests) => requests.includes(4));
    const outcomes = await Promise.allSettled([1, 2, 3, 4, 5, 6, 7].map(batcher));
    expect(calls.map((call) => call.requests)).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled']);
  });
});
