import { customerDecider, streams, type CustomerState } from '@bank/domain';
import { startPrivateRedis, type PrivateRedis } from '@bank/testkit';
import { paymentPinMatches } from '@bank/transfers';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadState } from '../commands/runCommand';
import { TooManyRequestsError } from '../http/httpErrors';
import { redisCommandsDuring } from '../testing/redisMonitor';
import { createTestApp, type SignedIn, type TestApp } from '../testing/testApp';
import { createPinAttemptGuard } from './pinAttemptLimiter';

const PIN = '123456';
const LIMIT = 2;
let t: TestApp;
let admin: SignedIn;
// A Redis server of this file's own: MONITOR on the shared one would also stream every other test file's traffic
// (BullMQ's among it), which is not what is counted here and has broken ioredis's monitor reader.
let redisServer: PrivateRedis;

beforeAll(async () => {
  redisServer = await startPrivateRedis();
  t = await createTestApp('pin_fast_path', { limits: { paymentPin: { limit: LIMIT, windowMs: 15 * 60_000 } }, env: { REDIS_URL: redisServer.url } });
  admin = await t.staff('admin');
});

afterAll(async () => {
  await t?.close();
  await redisServer?.destroy();
});

/** A customer with payment pin PIN, and their state as the transfer reads it. */
async function customerWithPin(): Promise<{ userId: string; state: CustomerState }> {
  const customer = await t.customer();
  await request(t.app)
    .put(`/api/user/admin/${customer.userId}`)
    .set(admin.auth)
    .send({ firstName: 'Ada', lastName: 'Lovelace', email: customer.email, phone: '555', location: { address: 'x', state: 'y' }, paymentPin: PIN })
    .expect(200);
  const { state } = await loadState(t.deps, customerDecider, streams.customer(customer.userId));
  return { userId: customer.userId, state };
}

/** Every command the file's Redis server runs on `userId`'s pin counters while `work` runs (MONITOR). */
async function pinCommandsDuring<T>(userId: string, work: () => Promise<T>): Promise<{ result: T; commands: string[] }> {
  const { result, commands } = await redisCommandsDuring(t.deps.redis, (args) => args.some((arg) => arg.includes('rl:pin') && arg.endsWith(userId)), work);
  return { result, commands: commands.map((args) => args[0]!.toLowerCase()) };
}

describe('the wrong-pin limit on the transfer path (paymentPinMatches with the Redis guard)', () => {
  it('a right pin costs one Redis command (an MGET of the counters), and counts nothing', async () => {
    const { userId, state } = await customerWithPin();
    const guard = createPinAttemptGuard(t.deps);
    const { result, commands } = await pinCommandsDuring(userId, () => paymentPinMatches({ pinKeys: t.deps.pinKeys, pinAttempts: guard }, userId, state, PIN));
    expect(result).toBe(true);
    expect(commands).toEqual(['mget']);
    expect(await t.deps.redis.mget(`${t.deps.config.REDIS_PREFIX}rl:pin:${userId}`, `${t.deps.config.REDIS_PREFIX}rl:pin-checking:${userId}`)).toEqual([null, null]);
  });

  it('a wrong pin is counted through the scripts, and once the limit is met the right pin is refused too (429)', async () => {
    const { userId, state } = await customerWithPin();
    const guard = createPinAttemptGuard(t.deps);
    const deps = { pinKeys: t.deps.pinKeys, pinAttempts: guard };
    const { result, commands } = await pinCommandsDuring(userId, () => paymentPinMatches(deps, userId, state, '000000'));
    expect(result).toBe(false);
    // The read first, then the counted attempt: its scripts (EVAL or EVALSHA) take a place and keep it as a failure (INCR inside).
    expect(commands[0]).toBe('mget');
    expect(commands).toContain('incr');
    expect(await paymentPinMatches(deps, userId, state, '000000')).toBe(false);
    await expect(paymentPinMatches(deps, userId, state, PIN)).rejects.toBeInstanceOf(TooManyRequestsError);
    await expect(paymentPinMatches(deps, userId, state, '000000')).rejects.toBeInstanceOf(TooManyRequestsError);
  });

  it('once the limit is met, the right pin and a wrong one run the same commands (no timing to tell them apart)', async () => {
    const { userId, state } = await customerWithPin();
    const deps = { pinKeys: t.deps.pinKeys, pinAttempts: createPinAttemptGuard(t.deps) };
    for (let i = 0; i < LIMIT; i += 1) expect(await paymentPinMatches(deps, userId, state, '000000')).toBe(false);
    const refusedWith = async (pin: string) => {
      const { result, commands } = await pinCommandsDuring(userId, () => paymentPinMatches(deps, userId, state, pin).catch((error: unknown) => error));
      expect(result).toBeInstanceOf(TooManyRequestsError);
      return commands;
    };
    const right = await refusedWith(PIN);
    expect(right[0]).toBe('mget');
    expect(await refusedWith('000000')).toEqual(right);
  });

  it('of 10 parallel wrong pins exactly the limit answer "wrong", the rest 429, as without the fast path', async () => {
    const { userId, state } = await customerWithPin();
    const deps = { pinKeys: t.deps.pinKeys, pinAttempts: createPinAttemptGuard(t.deps) };
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => paymentPinMatches(deps, userId, state, '000000')));
    expect(outcomes.filter((o) => o.status === 'fulfilled' && o.value === false)).toHaveLength(LIMIT);
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    expect(refused).toHaveLength(10 - LIMIT);
    for (const error of refused) expect(error).toBeInstanceOf(TooManyRequestsError);
    await expect(paymentPinMatches(deps, userId, state, PIN)).rejects.toBeInstanceOf(TooManyRequestsError);
  });

  it('a right pin is not admitted at once while wrong ones hold the remaining places: it waits for them, then meets the block', async () => {
    const { userId, state } = await customerWithPin();
    const guard = createPinAttemptGuard(t.deps);
    const prefix = t.deps.config.REDIS_PREFIX;
    // One failure recorded, one comparison in flight: no place left for now.
    await t.deps.redis.set(`${prefix}rl:pin:${userId}`, '1', 'PX', 60_000);
    await t.deps.redis.set(`${prefix}rl:pin-checking:${userId}`, '1', 'PX', 60_000);
    expect(await guard.admitsRightPin!(userId)).toBe(false);
    // The comparison in flight turns out wrong: the failures reach the limit, and the waiting right pin is refused.
    setTimeout(() => void t.deps.redis.multi().del(`${prefix}rl:pin-checking:${userId}`).incr(`${prefix}rl:pin:${userId}`).exec(), 100);
    await expect(paymentPinMatches({ pinKeys: t.deps.pinKeys, pinAttempts: guard }, userId, state, PIN)).rejects.toBeInstanceOf(TooManyRequestsError);
  });

  it('20 parallel right pins all go through, none counted', async () => {
    const { userId, state } = await customerWithPin();
    const deps = { pinKeys: t.deps.pinKeys, pinAttempts: createPinAttemptGuard(t.deps) };
    const answers = await Promise.all(Array.from({ length: 20 }, () => paymentPinMatches(deps, userId, state, PIN)));
    expect(answers).toEqual(Array.from({ length: 20 }, () => true));
    expect(await t.deps.redis.get(`${t.deps.config.REDIS_PREFIX}rl:pin:${userId}`)).toBeNull();
  });
});
