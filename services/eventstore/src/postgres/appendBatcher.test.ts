import { describe, expect, it } from 'vitest';
import { createAppendBatcher } from './appendBatcher';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('createAppendBatcher', () => {
  it('sends a request at once when no batch is in flight', async () => {
    const batches: number[][] = [];
    const submit = createAppendBatcher<number, number>({
      run: async (batch) => {
        batches.push([...batch]);
        return batch.map((value) => value * 10);
      },
      maxBatchSize: 10,
      maxConcurrentBatches: 1,
    });

    await expect(submit(1)).resolves.toBe(10);
    expect(batches).toEqual([[1]]);
  });

  it('sends the requests that waited behind a batch together, at most maxBatchSize at a time', async () => {
    const batches: number[][] = [];
    const gate = deferred<void>();
    const submit = createAppendBatcher<number, number>({
      run: async (batch) => {
        batches.push([...batch]);
        if (batches.length === 1) await gate.promise;
        return batch.map((value) => -value);
      },
      maxBatchSize: 3,
      maxConcurrentBatches: 1,
    });

    const results = [1, 2, 3, 4, 5, 6].map((value) => submit(value));
    gate.resolve();

    await expect(Promise.all(results)).resolves.toEqual([-1, -2, -3, -4, -5, -6]);
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it('runs each request of a failed batch alone, so that only the bad one fails', async () => {
    const gate = deferred<void>();
    let calls = 0;
    const submit = createAppendBatcher<number, number>({
      run: async (batch) => {
        calls += 1;
        if (calls === 1) await gate.promise;
        if (batch.includes(13)) throw new Error('unlucky');
        return [...batch];
      },
      maxBatchSize: 10,
      maxConcurrentBatches: 1,
    });

    const first = submit(1);
    const rest = [12, 13, 14].map((value) => submit(value).then(String, (error: Error) => error.message));
    gate.resolve();

    await expect(first).resolves.toBe(1);
    await expect(Promise.all(rest)).resolves.toEqual(['12', 'unlucky', '14']);
  });
});
