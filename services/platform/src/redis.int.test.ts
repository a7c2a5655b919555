import { afterAll, describe, expect, it } from 'vitest';
import { createRedis } from './redis';

/** The API's Redis connection against the tests' Redis (TEST_REDIS_URL, else localhost, as @bank/testkit): counts the socket's writes. */
const redis = createRedis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const prefix = `test:redis:${process.pid}:${Date.now()}:`;

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

/** Counts the writes to the connection's socket while `run` runs. */
async function writesDuring<T>(run: () => Promise<T>): Promise<{ writes: number; result: T }> {
  await redis.ping();
  const stream = (redis as unknown as { stream: { write: (...args: unknown[]) => boolean } }).stream;
  const write = stream.write;
  let writes = 0;
  stream.write = function (this: unknown, ...args: unknown[]) {
    writes += 1;
    return write.apply(this, args);
  };
  try {
    const result = await run();
    return { writes, result };
  } finally {
    stream.write = write;
  }
}

describe('the API\'s Redis connection', () => {
  it('sends the commands asked in one turn in one write, each answered as alone', async () => {
    await redis.set(`${prefix}a`, '1');
    await redis.set(`${prefix}b`, '2');
    const { writes, result } = await writesDuring(() =>
      Promise.all([redis.get(`${prefix}a`), redis.mget(`${prefix}a`, `${prefix}b`, `${prefix}missing`), redis.set(`${prefix}c`, '3', 'EX', 60, 'NX'), redis.get(`${prefix}b`)]),
    );
    expect(result).toEqual(['1', ['1', '2', null], 'OK', '2']);
    expect(writes).toBe(1);
    // Commands asked in turns one after the other each go when asked.
    const apart = await writesDuring(async () => {
      await redis.get(`${prefix}a`);
      await redis.get(`${prefix}b`);
    });
    expect(apart.writes).toBe(2);
    // A transaction is sent as one, its answers in order.
    const multi = await redis.multi().incr(`${prefix}n`).expire(`${prefix}n`, 60).exec();
    expect(multi).toEqual([
      [null, 1],
      [null, 1],
    ]);
  });
});
