import { Router } from 'express';
import type { AppDeps } from '../../appDeps';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { currentUser } from '../auth/authHandlers';
import { submitVerification, updateProfile, updateProfilePicture } from './userHandlers';

/** /user/*: the signed-in user's own record (any role) and the customer's self-service commands (customer, admin). */
export function createUsersRouter(deps: AppDeps): Router {
  const router = Router();
  const customerArea = [requireAuth(deps), requireRole('customer', 'admin')];
  router.get('/user/me', requireAuth(deps), currentUser(deps));
  router.post('/user/verification', ...customerArea, submitVerification(deps));
  router.patch('/user/profile', ...customerArea, updateProfile(deps));
  router.patch('/user/profile-picture', ...customerArea, updateProfilePicture(deps));
  return router;
}
