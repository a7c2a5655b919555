import type { AppDeps } from '../appDeps';
import { createFailureLimiter, type FailureLimiter } from '../http/rateLimiter';

export const TOO_MANY_WRONG_PINS_MESSAGE = 'Too many incorrect payment pins, please try again later';

/**
 * Wrong payment pins per user (default 5 per 15 minutes, RATE_LIMIT_PIN_*). For the transfer route:
 *   await pins.assertAllowed(userId);            // 429 with Retry-After once the user has no attempts left
 *   if (!pinMatches) await pins.recordFailure(userId);
 */
export function createPinAttemptLimiter(deps: Pick<AppDeps, 'redis' | 'config' | 'limits'>): FailureLimiter {
  return createFailureLimiter(deps, { name: 'pin', limit: deps.limits.paymentPin, message: TOO_MANY_WRONG_PINS_MESSAGE });
}
