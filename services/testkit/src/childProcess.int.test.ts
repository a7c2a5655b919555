import { afterEach, describe, expect, it } from 'vitest';
import { firstOutput, spawnTs, type Child } from './childProcess';

const children: Child[] = [];
const ticker = (env: Record<string, string>): Child => {
  const child = spawnTs('services/testkit/test/ticker.ts', env);
  children.push(child);
  return child;
};

afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.kill()));
});

describe('waiting for a child process to print', () => {
  it('waits past the timeout for a process that keeps printing, when the timeout counts silence', async () => {
    const child = ticker({ TICKS: '12', TICK_MS: '150' });
    const started = Date.now();
    await expect(firstOutput(child, ['END', 'NEVER'], 1_000)).resolves.toBe('END');
    expect(Date.now() - started).toBeGreaterThan(1_000);
  });

  it('gives up on a process that falls silent, and says how long it waited', async () => {
    const child = ticker({ TICKS: '0' });
    await expect(firstOutput(child, ['END'], 1_000)).rejects.toThrow(/1000 ms without output/);
  });

  it('counts a plain timeout from the call, whatever the process prints', async () => {
    const child = ticker({ TICKS: '12', TICK_MS: '150' });
    await expect(child.waitFor('END', { timeoutMs: 1_000 })).rejects.toThrow(/Timed out waiting for "END" x1: 1000 ms/);
  });
});
