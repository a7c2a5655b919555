import { describe, expect, it } from 'vitest';
import { ShutdownSteps, stopWithin, type StopOverdue } from './shutdown';

const never = () => new Promise<void>(() => undefined);

describe('ShutdownSteps', () => {
  it('names the step running, and the step inside it when it has steps of its own', async () => {
    const outer = new ShutdownSteps();
    const inner = new ShutdownSteps();
    const seen: (string | undefined)[] = [];
    await outer.run('server', () => void seen.push(outer.current()));
    await outer.run(
      'worker',
      async () => {
        seen.push(outer.current());
        await inner.run('ach', () => void seen.push(outer.current()));
      },
      () => inner.current(),
    );
    seen.push(outer.current());
    expect(seen).toEqual(['server', 'worker', 'worker: ach', undefined]);
  });

  it('is between steps again after a step that failed', async () => {
    const steps = new ShutdownSteps();
    await expect(steps.run('redis', () => Promise.reject(new Error('gone')))).rejects.toThrow('gone');
    expect(steps.current()).toBeUndefined();
  });
});

describe('stopWithin', () => {
  it('answers stopped when the stop ends before the deadline, and reports nothing', async () => {
    const overdue: StopOverdue[] = [];
    await expect(stopWithin(() => Promise.resolve(), 1_000, () => undefined, (o) => overdue.push(o))).resolves.toBe('stopped');
    expect(overdue).toEqual([]);
  });

  it('answers overdue at the deadline of a stop that never ends, naming the step it is in', async () => {
    const steps = new ShutdownSteps();
    const overdue: StopOverdue[] = [];
    const started = Date.now();
    const outcome = await stopWithin(() => steps.run('worker', never), 50, () => steps.current(), (o) => overdue.push(o));
    expect(outcome).toBe('overdue');
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(overdue).toEqual([{ deadlineMs: 50, step: 'worker' }]);
  });

  it('throws what the stop threw', async () => {
    await expect(stopWithin(() => Promise.reject(new Error('pool refused')), 1_000, () => undefined, () => undefined)).rejects.toThrow('pool refused');
  });
});
