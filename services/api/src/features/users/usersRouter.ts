import { Router, type Request } from 'express';
import type { AppDeps } from '../../appDeps';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { idempotency } from '../../http/idempotency';
import { uploadJsonBody } from '../../http/jsonBody';
import { currentUser } from '../auth/authHandlers';
import { submitVerification, updateProfile, updateProfilePicture } from './userHandlers';

/** The routes whose bodies carry images: parsed (up to 45 MB) only after authentication and the role check. */
export const UPLOAD_ROUTES = [
  { method: 'POST', path: '/user/verification' },
  { method: 'PATCH', path: '/user/profile-picture' },
] as const;

/** Whether a request (as seen under /api) goes to an upload route; Express matches paths case-insensitively, with an optional trailing slash. */
export function isUploadRequest(req: Pick<Request, 'method' | 'path'>): boolean {
  const path = req.path.toLowerCase().replace(/\/+$/, '');
  return UPLOAD_ROUTES.some((route) => route.method === req.method && route.path === path);
}

/** /user/*: the signed-in user's own record (any role) and the customer's self-service commands (customer, admin). */
export function createUsersRouter(deps: AppDeps): Router {
  const router = Router();
  const customerArea = [requireAuth(deps), requireRole('customer', 'admin')];
  // The app-wide parser and idempotency leave the upload routes alone (app.ts): both run here, after the role check.
  const uploadArea = [...customerArea, ...uploadJsonBody(), idempotency(deps)];
  router.get('/user/me', requireAuth(deps), currentUser(deps));
  router.post(UPLOAD_ROUTES[0].path, ...uploadArea, submitVerification(deps));
  router.patch('/user/profile', ...customerArea, updateProfile(deps));
  router.patch(UPLOAD_ROUTES[1].path, ...uploadArea, updateProfilePicture(deps));
  return router;
}
