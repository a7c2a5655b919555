import { afterEach, describe, expect, it } from 'vitest';
import { firstOutput, spawnTs, type Child } from './childProcess';

const children: Child[] = [];
/** The ticker process, once started (a loaded host can take seconds to start one: not part of what is measured). */
const ticker = async (env: Record<string, string>): Promise<Child> => {
  const child = spawnTs('services/testkit/test/ticker.ts', env);
  children.push(child);
  await child.waitFor('READY', { timeoutMs: 60_000 });
  return child;
};

afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.kill()));
});

describe('waiting for a child process to print', () => {
  it('waits past the timeout for a process that keeps printing, when the timeout counts silence', async () => {
    const child = await ticker({ TICKS: '20', TICK_MS: '200' });
    const started = Date.now();
    await expect(firstOutput(child, ['END', 'NEVER'], 3_000)).resolves.toBe('END');
    expect(Date.now() - started).toBeGreaterThan(3_000);
  });

  it('gives up on a process that falls silent, and says how long it waited', async () => {
    const child = await ticker({ TICKS: '0' });
    await expect(firstOutput(child, ['END'], 1_000)).rejects.toThrow(/1000 ms without output/);
  });

  it('counts a plain timeout from the call, whatever the process prints', async () => {
    const child = await ticker({ TICKS: '20', TICK_MS: '200' });
    await expect(child.waitFor('END', { timeoutMs: 1_000 })).rejects.toThrow(/Timed out waiting for "END" x1: 1000 ms/);
  });
});
