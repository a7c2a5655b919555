import { Router } from 'express';
import type { AppDeps } from '../../appDeps';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { closeUser, listUsers, updateAccount, updateUser, userByEmail, userById } from './adminUserHandlers';
import { resetSecondFactor, secondFactorOfUser } from './secondFactorReset';

/** /user/admin*: the admin's user management (role admin; anyone else 403). */
export function createAdminUsersRouter(deps: AppDeps): Router {
  const router = Router();
  router.use('/user/admin', requireAuth(deps), requireRole('admin'));
  router.get('/user/admin', listUsers(deps));
  router.get('/user/admin/email/:email', userByEmail(deps));
  router.put('/user/admin/account/:id', updateAccount(deps));
  router.get('/user/admin/:id', userById(deps));
  router.put('/user/admin/:id', updateUser(deps));
  router.delete('/user/admin/:id', closeUser(deps));
  router.get('/user/admin/:id/second-factor', secondFactorOfUser(deps));
  router.post('/user/admin/:id/second-factor/reset', resetSecondFactor(deps));
  return router;
}
