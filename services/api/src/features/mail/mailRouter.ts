import { Router } from 'express';
import type { AppDeps } from '../../appDeps';
import { createAuthLimits } from '../../auth/authLimits';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { createRateLimiter } from '../../http/rateLimiter';
import { forgotPassword, resetPassword } from '../auth/passwordReset';
import { sendVerificationAgain, verifyEmail } from './emailConfirmation';
import { getNotifications, putNotifications } from './notifications';

/** One client sending more than this many requests a minute to forgot-password gets 429. */
export const FORGOT_PASSWORD_PER_MINUTE = 20;
/** "Send again" of the confirmation link: at most this many an hour per user. */
export const VERIFY_AGAIN_PER_HOUR = 5;

/**
 * E-mail (docs/email.md): the password reset and the address confirmation (public), "Send again" and the
 * notification settings (customers). GET /bank (the bank's details every message prints) is features/bank/.
 */
export function createMailRouter(deps: AppDeps): Router {
  const router = Router();
  const forgotLimit = createRateLimiter(deps, { name: 'forgot-password', limit: { limit: FORGOT_PASSWORD_PER_MINUTE, windowMs: 60_000 }, key: 'ip' });
  const againLimit = createRateLimiter(deps, { name: 'verify-email-again', limit: { limit: VERIFY_AGAIN_PER_HOUR, windowMs: 3_600_000 }, key: 'user' });
  const customer = [requireAuth(deps), requireRole('customer')];
  router.post('/auth/forgot-password', forgotLimit, forgotPassword(deps));
  router.post('/auth/reset-password', resetPassword(deps, createAuthLimits(deps)));
  router.post('/auth/verify-email', verifyEmail(deps));
  router.post('/user/verify-email', ...customer, againLimit, sendVerificationAgain(deps));
  router.get('/user/notifications', ...customer, getNotifications(deps));
  router.put('/user/notifications', ...customer, putNotifications(deps));
  return router;
}
