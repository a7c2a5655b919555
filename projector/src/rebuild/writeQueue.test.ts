import { describe, expect, it } from 'vitest';
import { WriteQueue, type WriteJob } from './writeQueue';

/** A job whose end the test decides: `finish` resolves it, `fail` rejects it. */
interface Held {
  readonly group: string;
  readonly batch: number;
  lane?: number;
  finish: () => void;
  fail: (error: Error) => void;
}

/** A queue whose jobs wait for the test, recording when each starts and on which lane. */
function harness(lanes: number, cost: Record<string, number> = {}) {
  const started: Held[] = [];
  const written: number[] = [];
  const queue = new WriteQueue<string>(lanes, (group) => cost[group] ?? 0, (batch) => written.push(batch));
  let batch = 0;
  const enqueue = (...groups: string[]) => {
    const number = batch;
    batch += 1;
    const jobs: WriteJob<string>[] = groups.map((group) => ({
      group,
      run: (lane) =>
        new Promise<void>((resolve, reject) => {
          started.push({ group, batch: number, lane, finish: resolve, fail: reject });
        }),
    }));
    queue.enqueue(jobs);
  };
  const job = (group: string, batchNumber: number) => {
    const found = started.find((held) => held.group === group && held.batch === batchNumber);
    if (!found) throw new Error(`${group} of batch ${batchNumber} has not started`);
    return found;
  };
  const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
  return { queue, started, written, enqueue, job, tick };
}

describe('the rebuild writes its batches on a few lanes, each group in order and free of the others', () => {
  it('never runs two batches of one group at once, and runs them in the log order', async () => {
    const h = harness(3);
    h.enqueue('interest', 'ledger');
    h.enqueue('interest', 'ledger');
    h.enqueue('interest');
    await h.tick();
    expect(h.started.map((held) => `${held.group}${held.batch}`)).toEqual(['interest0', 'ledger0']);
    h.job('interest', 0).finish();
    await h.tick();
    expect(h.started.map((held) => `${held.group}${held.batch}`)).toEqual(['interest0', 'ledger0', 'interest1']);
    h.job('interest', 1).finish();
    await h.tick();
    expect(h.started.at(-1)).toMatchObject({ group: 'interest', batch: 2 });
  });

  it('lets the other groups go on past a group held up by a long write, and reports batches written only as a prefix', async () => {
    const h = harness(2);
    h.enqueue('interest', 'ledger');
    h.enqueue('interest', 'ledger');
    h.enqueue('interest', 'ledger');
    await h.tick();
    h.job('ledger', 0).finish();
    await h.tick();
    h.job('ledger', 1).finish();
    await h.tick();
    h.job('ledger', 2).finish();
    await h.tick();
    // The ledger wrote three batches while the interest's first was still running: none of them is written whole.
    expect(h.written).toEqual([]);
    expect(h.queue.backlog).toBe(3);
    h.job('interest', 0).finish();
    await h.tick();
    expect(h.written).toEqual([0]);
    h.job('interest', 1).finish();
    await h.tick();
    h.job('interest', 2).finish();
    await h.tick();
    expect(h.written).toEqual([0, 1, 2]);
    expect(h.queue.backlog).toBe(0);
  });

  it('gives a free lane the oldest batch waiting, the costliest group first among as old ones', async () => {
    const h = harness(1, { users: 1, interest: 50, ledger: 20 });
    h.enqueue('users');
    h.enqueue('users', 'ledger', 'interest');
    await h.tick();
    expect(h.started.map((held) => held.group)).toEqual(['users']);
    h.job('users', 0).finish();
    await h.tick();
    h.job('interest', 1).finish();
    await h.tick();
    h.job('ledger', 1).finish();
    await h.tick();
    expect(h.started.map((held) => `${held.group}${held.batch}`)).toEqual(['users0', 'interest1', 'ledger1', 'users1']);
  });

  it('prefers an older batch to a costlier group of a later one', async () => {
    const h = harness(1, { users: 1, interest: 50 });
    h.enqueue('interest');
    h.enqueue('users');
    h.enqueue('interest');
    await h.tick();
    h.job('interest', 0).finish();
    await h.tick();
    h.job('users', 1).finish();
    await h.tick();
    expect(h.started.map((held) => `${held.group}${held.batch}`)).toEqual(['interest0', 'users1', 'interest2']);
  });

  it('uses every lane, one job a lane at a time', async () => {
    const h = harness(2);
    h.enqueue('a', 'b', 'c');
    await h.tick();
    expect(h.started.map((held) => held.lane).sort()).toEqual([0, 1]);
    const lane = h.job('a', 0).lane;
    h.job('a', 0).finish();
    await h.tick();
    expect(h.job('c', 0).lane).toBe(lane);
  });

  it('holds the fold back until the batches not written are few enough', async () => {
    const h = harness(2);
    h.enqueue('a');
    h.enqueue('a');
    let resumed = false;
    const waiting = h.queue.waitForBacklog(1).then(() => {
      resumed = true;
    });
    await h.tick();
    expect(resumed).toBe(false);
    h.job('a', 0).finish();
    await waiting;
    expect(resumed).toBe(true);
    expect(h.queue.backlog).toBe(1);
  });

  it('counts a batch with nothing to write as written as soon as those before it are', async () => {
    const h = harness(1);
    h.enqueue('a');
    h.enqueue();
    await h.tick();
    expect(h.written).toEqual([]);
    h.job('a', 0).finish();
    await h.tick();
    expect(h.written).toEqual([0, 1]);
  });

  it('once closed (the fold failed), starts nothing more and waits only for the jobs running', async () => {
    const h = harness(1);
    h.enqueue('a');
    h.enqueue('a');
    h.enqueue('b');
    await h.tick();
    let closed = false;
    const closing = h.queue.close().then(() => (closed = true));
    await h.tick();
    expect(closed).toBe(false);
    h.job('a', 0).finish();
    await closing;
    expect(h.started.map((held) => `${held.group}${held.batch}`)).toEqual(['a0']);
  });

  it('stops handing out work at the first failure, waits for the jobs running, and throws the failure', async () => {
    const h = harness(2);
    h.enqueue('a', 'b');
    h.enqueue('a', 'b');
    await h.tick();
    const drained = h.queue.drain();
    let settled = false;
    drained.catch(() => undefined).finally(() => (settled = true));
    h.job('a', 0).fail(new Error('the server refused a row'));
    await h.tick();
    // b's first batch is still running: the queue waits for it before giving its connection back.
    expect(settled).toBe(false);
    expect(h.started.map((held) => `${held.group}${held.batch}`)).toEqual(['a0', 'b0']);
    h.job('b', 0).finish();
    await expect(drained).rejects.toThrow('the server refused a row');
    // Nothing more started after the failure, even with a lane free.
    expect(h.started).toHaveLength(2);
    await expect(h.queue.waitForBacklog(5)).rejects.toThrow('the server refused a row');
  });
});
