import { Router } from 'express';
import type { AppDeps } from '../../appDeps';
import { requireAuth } from '../../auth/requireAuth';
import { createRateLimiter } from '../../http/rateLimiter';
import { changePassword, currentUser, signIn, signOut, signUp } from './authHandlers';
import { createSignInLimiter } from './signInLimiter';

export const TOO_MANY_SIGN_UPS_MESSAGE = 'Too many accounts created from this address, please try again later';

/** /auth/*: sign-up, sign-in (public); sign-out, the current user and the password change (any signed-in user). */
export function createAuthRouter(deps: AppDeps): Router {
  const router = Router();
  const signUpLimit = createRateLimiter(deps, { name: 'signup', limit: deps.limits.signUp, key: 'ip', message: TOO_MANY_SIGN_UPS_MESSAGE });
  router.post('/auth/signup', signUpLimit, signUp(deps));
  router.post('/auth/signin', signIn(deps, createSignInLimiter(deps)));
  router.post('/auth/signout', requireAuth(deps), signOut(deps));
  router.get('/auth/user', requireAuth(deps), currentUser(deps));
  router.post('/auth/change-password', requireAuth(deps), changePassword(deps));
  return router;
}
