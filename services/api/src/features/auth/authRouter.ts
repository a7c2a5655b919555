import { Router } from 'express';
import type { AppDeps } from '../../appDeps';
import { createAuthLimits } from '../../auth/authLimits';
import { requireAuth } from '../../auth/requireAuth';
import { createRateLimiter } from '../../http/rateLimiter';
import { changePassword, currentUser, signIn, signOut, signUp } from './authHandlers';
import {
  completeSignIn,
  confirmSecondFactor,
  enrolDuringSignIn,
  removeSecondFactor,
  secondFactorStatus,
  setUpSecondFactor,
} from './secondFactorHandlers';
import { dismissNotice, sessionRevoke, sessionsList, sessionsRevokeOthers, signInNotices } from './sessionHandlers';

export const TOO_MANY_SIGN_UPS_MESSAGE = 'Too many accounts created from this address, please try again later';

/**
 * /auth/*: sign-up and the two steps of sign-in (public); sign-out, the current user, the password change, the
 * second factor and the sessions (any signed-in user).
 */
export function createAuthRouter(deps: AppDeps): Router {
  const router = Router();
  const signUpLimit = createRateLimiter(deps, { name: 'signup', limit: deps.limits.signUp, key: 'ip', message: TOO_MANY_SIGN_UPS_MESSAGE });
  const limits = createAuthLimits(deps);
  const auth = requireAuth(deps);
  router.post('/auth/signup', signUpLimit, signUp(deps));
  router.post('/auth/signin', signIn(deps, limits));
  router.post('/auth/second-factor/enrol', enrolDuringSignIn(deps));
  router.post('/auth/second-factor', completeSignIn(deps, limits));
  router.post('/auth/signout', auth, signOut(deps));
  router.get('/auth/user', auth, currentUser(deps));
  router.post('/auth/change-password', auth, changePassword(deps, limits));
  router.get('/auth/second-factor', auth, secondFactorStatus(deps));
  router.post('/auth/second-factor/setup', auth, setUpSecondFactor(deps));
  router.post('/auth/second-factor/confirm', auth, confirmSecondFactor(deps, limits));
  router.delete('/auth/second-factor', auth, removeSecondFactor(deps, limits));
  router.get('/auth/sessions', auth, sessionsList(deps));
  router.post('/auth/sessions/revoke-others', auth, sessionsRevokeOthers(deps));
  router.delete('/auth/sessions/:id', auth, sessionRevoke(deps));
  router.get('/auth/sign-in-notices', auth, signInNotices(deps));
  router.delete('/auth/sign-in-notices/:id', auth, dismissNotice(deps));
  return router;
}
