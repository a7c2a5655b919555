import type { AppDeps } from '../../appDeps';
import { createFailureLimiter, type FailureLimiter } from '../../http/rateLimiter';

export const TOO_MANY_SIGN_INS_MESSAGE = 'Too many failed sign-in attempts, please try again later';

/** Failed sign-ins per e-mail address (default 10 per 15 minutes, RATE_LIMIT_SIGNIN_*). */
export function createSignInLimiter(deps: Pick<AppDeps, 'redis' | 'config' | 'limits'>): FailureLimiter {
  return createFailureLimiter(deps, { name: 'signin', limit: deps.limits.signIn, message: TOO_MANY_SIGN_INS_MESSAGE });
}
