import type { Redis } from 'ioredis';

/**
 * Every command a Redis server runs while `work` runs (MONITOR, scripts' inner commands included) whose arguments
 * `matches` picks, as their argument lists. Use a server of the test file's own: MONITOR on a shared one streams
 * every other file's traffic too.
 */
export async function redisCommandsDuring<T>(redis: Redis, matches: (args: readonly string[]) => boolean, work: () => Promise<T>): Promise<{ result: T; commands: string[][] }> {
  const monitor = await redis.monitor();
  const commands: string[][] = [];
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (matches(args)) commands.push(args);
  });
  try {
    const result = await work();
    // MONITOR's lines arrive after the replies: give the last ones time to come.
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { result, commands };
  } finally {
    monitor.disconnect();
  }
}
