import type { PinAttemptGuard } from '@bank/transfers';
import type { AppDeps } from '../appDeps';
import { ServiceUnavailableError, TooManyRequestsError } from '../http/httpErrors';

export const TOO_MANY_WRONG_PINS_MESSAGE = 'Too many incorrect payment pins, please try again later';
export const PAYMENTS_BUSY_MESSAGE = 'Too many payments at once, please try again';
const UNAVAILABLE_MESSAGE = 'Payments are unavailable for a moment, please try again';

/**
 * Acquire: refused when the window's failures reached the limit (-1, with the window's ms left); busy when failures
 * plus the checks in flight reach it (0); else one more check in flight (1). Release: one check less in flight, and
 * one more failure when the pin was wrong (the window starts at its first failure; the failure that reaches the
 * limit starts it again, so the block lasts the whole window: "5 wrong pins in 15 minutes block further attempts for
 * 15 minutes").
 */
const ACQUIRE = `
local failures = tonumber(redis.call('GET', KEYS[1]) or '0')
local limit = tonumber(ARGV[1])
if failures >= limit then return {-1, redis.call('PTTL', KEYS[1])} end
local inFlight = tonumber(redis.call('GET', KEYS[2]) or '0')
if failures + inFlight >= limit then return {0, 0} end
redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return {1, 0}`;
const RELEASE = `
local inFlight = tonumber(redis.call('GET', KEYS[2]) or '0')
if inFlight > 1 then redis.call('DECR', KEYS[2]) else redis.call('DEL', KEYS[2]) end
if ARGV[1] == '1' then
  local failures = redis.call('INCR', KEYS[1])
  if failures == 1 or failures == tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
end
return 1`;

/** A check still in flight after this long (its process died) stops counting. */
const IN_FLIGHT_TTL_MS = 10_000;
/** How long a check waits for the ones in flight before answering 429. */
const BUSY_WAIT_MS = 3_000;

type Redis = AppDeps['redis'] & {
  pinAcquire?(failures: string, inFlight: string, limit: number, ttlMs: number): Promise<[number, number]>;
  pinRelease?(failures: string, inFlight: string, wrong: '0' | '1', windowMs: number, limit: number): Promise<number>;
};

/**
 * Wrong payment pins per user (default 5 per 15 minutes, RATE_LIMIT_PIN_*), counted BEFORE the pin is compared: each
 * comparison first takes a place among the user's remaining attempts (atomically, in Redis) and a wrong pin keeps
 * it. So N parallel wrong pins meet the limit after `limit` comparisons and the rest are refused unchecked — and,
 * unlike a counter that only consumes, N parallel transfers with the RIGHT pin all go through: a comparison that
 * finds no place while others are in flight waits for them (they take a millisecond) instead of being refused.
 * 429 with Retry-After once the failures reach the limit; 503 when Redis cannot be reached (fail closed).
 *
 * The happy path costs one Redis command (`admitsRightPin`, an MGET of both counters, read before a keyed pin is
 * compared, see @bank/transfers' paymentPinMatches); the counted `attempt` (two scripts) is for wrong pins, bcrypt
 * pins and any pin that finds no place at once. An answer never depends on an uncounted comparison: the fast path
 * only admits what `attempt` would have admitted at that instant, a wrong pin is compared again in its place, and
 * while the limit is met no pin is compared at all.
 */
export interface ApiPinAttemptGuard extends PinAttemptGuard {
  admitsRightPin(userId: string): Promise<boolean>;
  /**
   * `admitsRightPin` that also reads one more key in the same command (the transfer's idempotency record): the
   * request path's one Redis command. `value` is that key's value (null when absent).
   */
  admitsRightPinReading(userId: string, key: string): Promise<{ readonly admitted: boolean; readonly value: string | null }>;
}

export function createPinAttemptGuard(deps: Pick<AppDeps, 'redis' | 'config' | 'limits'>): ApiPinAttemptGuard {
  const redis = deps.redis as Redis;
  if (!redis.pinAcquire) redis.defineCommand('pinAcquire', { numberOfKeys: 2, lua: ACQUIRE });
  if (!redis.pinRelease) redis.defineCommand('pinRelease', { numberOfKeys: 2, lua: RELEASE });
  const { limit, windowMs } = deps.limits.paymentPin;
  const keys = (userId: string) => [`${deps.config.REDIS_PREFIX}rl:pin:${userId}`, `${deps.config.REDIS_PREFIX}rl:pin-checking:${userId}`] as const;
  const unavailable = (error: unknown) => Object.assign(new ServiceUnavailableError(UNAVAILABLE_MESSAGE, 5), { cause: error });

  async function admitsRightPinReading(userId: string, extra?: string): Promise<{ admitted: boolean; value: string | null }> {
    // One read (MGET, atomic): an attempt acquired now would get a place. With a right pin, acquire, compare and
    // release change nothing, so this read stands for all three at its instant.
    let counts: (string | null)[];
    try {
      counts = await deps.redis.mget(...keys(userId), ...(extra === undefined ? [] : [extra]));
    } catch (error) {
      throw unavailable(error);
    }
    return { admitted: Number(counts[0] ?? 0) + Number(counts[1] ?? 0) < limit, value: counts[2] ?? null };
  }

  return {
    async admitsRightPin(userId) {
      return (await admitsRightPinReading(userId)).admitted;
    },
    admitsRightPinReading,
    async attempt(userId, check) {
      const [failures, inFlight] = keys(userId);
      const deadline = Date.now() + BUSY_WAIT_MS;
      for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
        let answer: [number, number];
        try {
          answer = await redis.pinAcquire!(failures, inFlight, limit, IN_FLIGHT_TTL_MS);
        } catch (error) {
          throw unavailable(error);
        }
        if (answer[0] === 1) break;
        if (answer[0] === -1) throw new TooManyRequestsError(TOO_MANY_WRONG_PINS_MESSAGE, Math.max(1, (answer[1] > 0 ? answer[1] : windowMs) / 1000));
        if (Date.now() + pause > deadline) throw new TooManyRequestsError(PAYMENTS_BUSY_MESSAGE, 1);
        await new Promise((resolve) => setTimeout(resolve, pause * (0.5 + Math.random())));
      }
      // Only a comparison that answered "wrong" counts; one that failed (an error) just leaves its place.
      let wrong = false;
      try {
        const right = await check();
        wrong = !right;
        return right;
      } finally {
        await redis.pinRelease!(failures, inFlight, wrong ? '1' : '0', windowMs, limit).catch((error: unknown) => {
          throw unavailable(error);
        });
      }
    },
  };
}
