import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { rateLimit, type Options } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { AppDeps } from '../appDeps';
import type { RateLimit } from '../rateLimitConfig';
import { TooManyRequestsError } from './httpErrors';

export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests, please try again later';

type RedisDeps = Pick<AppDeps, 'redis' | 'config'>;

function redisStore(redis: Redis, prefix: string): RedisStore {
  return new RedisStore({
    sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
    prefix,
  });
}

export interface RateLimiterOptions {
  /** Names the counter in Redis: `<REDIS_PREFIX>rl:<name>:<key>`. */
  readonly name: string;
  readonly limit: RateLimit;
  /** What is counted: per client address, per signed-in user (after requireAuth), or a key of the request's own. */
  readonly key: 'ip' | 'user' | ((req: Request) => string);
  readonly message?: string;
  /** Requests for which nothing is counted. */
  readonly skip?: (req: Request) => boolean;
}

/**
 * A rate-limiting middleware counting in Redis (express-rate-limit + rate-limit-redis). Over the limit it answers 429
 * in the contract's error shape with Retry-After (and the RateLimit headers of draft 7).
 */
export function createRateLimiter(deps: RedisDeps, options: RateLimiterOptions): RequestHandler {
  const message = options.message ?? TOO_MANY_REQUESTS_MESSAGE;
  const keyGenerator = options.key === 'user' ? (req: Request) => `user:${req.auth?.userId ?? 'anonymous'}` : options.key === 'ip' ? undefined : options.key;
  const config: Partial<Options> = {
    windowMs: options.limit.windowMs,
    limit: options.limit.limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store: redisStore(deps.redis, `${deps.config.REDIS_PREFIX}rl:${options.name}:`),
    ...(keyGenerator ? { keyGenerator } : {}),
    ...(options.skip ? { skip: options.skip } : {}),
    handler: (_req: Request, res: Response, next: NextFunction) => {
      const retryAfter = Number(res.getHeader('Retry-After'));
      next(new TooManyRequestsError(message, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : options.limit.windowMs / 1000));
    },
  };
  return rateLimit(config);
}
