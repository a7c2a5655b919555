import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppDeps } from '../appDeps';
import { ServiceUnavailableError, TooManyRequestsError } from '../http/httpErrors';
import type { RateLimit } from '../rateLimitConfig';

/**
 * A failure limit that counts BEFORE the check (rate-limiter-flexible on Redis): each attempt takes a point first
 * and the point is given back when the check passes. N parallel wrong guesses therefore meet the limit after
 * `limit` of them, instead of all being checked because none was counted yet. Keys live under
 * `<REDIS_PREFIX>rl:<name>:`. When Redis cannot be reached the attempt is refused with 503 (fail closed).
 */
export interface AttemptLimiter {
  readonly name: string;
  /** Takes one attempt for `key`; 429 with Retry-After when none is left. */
  consume(key: string): Promise<void>;
  /** Gives one attempt back (the check passed). */
  reward(key: string): Promise<void>;
  /** Forgets every attempt of `key`. */
  reset(key: string): Promise<void>;
}

export interface AttemptLimiterOptions {
  readonly name: string;
  readonly limit: RateLimit;
  readonly message: string;
}

const REDIS_UNAVAILABLE = 'Sign-in is unavailable for a moment, please try again';

function unavailable(error: unknown): ServiceUnavailableError {
  return Object.assign(new ServiceUnavailableError(REDIS_UNAVAILABLE, 5), { cause: error });
}

export function createAttemptLimiter(deps: Pick<AppDeps, 'redis' | 'config'>, options: AttemptLimiterOptions): AttemptLimiter {
  const limiter = new RateLimiterRedis({
    storeClient: deps.redis,
    keyPrefix: `${deps.config.REDIS_PREFIX}rl:${options.name}`,
    points: options.limit.limit,
    duration: Math.max(1, Math.ceil(options.limit.windowMs / 1000)),
    rejectIfRedisNotReady: true,
  });
  return {
    name: options.name,
    async consume(key) {
      try {
        await limiter.consume(key, 1);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw new TooManyRequestsError(options.message, Math.max(1, rejection.msBeforeNext / 1000));
        throw unavailable(rejection);
      }
    },
    async reward(key) {
      await limiter.reward(key, 1).catch((error: unknown) => {
        throw unavailable(error);
      });
    },
    async reset(key) {
      await limiter.delete(key).catch((error: unknown) => {
        throw unavailable(error);
      });
    },
  };
}

/** Attempts taken from several limits at once: give them back together when the check passed. */
export interface TakenAttempts {
  giveBack(): Promise<void>;
}

/**
 * Takes one attempt from each `[limiter, key]`, in order. When one has none left, the attempts already taken are
 * given back (the request was refused unchecked) and its 429 is thrown.
 */
export async function takeAttempts(...entries: readonly (readonly [AttemptLimiter, string])[]): Promise<TakenAttempts> {
  const taken: (readonly [AttemptLimiter, string])[] = [];
  try {
    for (const entry of entries) {
      await entry[0].consume(entry[1]);
      taken.push(entry);
    }
  } catch (error) {
    await Promise.allSettled(taken.map(([limiter, key]) => limiter.reward(key)));
    throw error;
  }
  return {
    async giveBack() {
      await Promise.all(taken.map(([limiter, key]) => limiter.reward(key)));
    },
  };
}
