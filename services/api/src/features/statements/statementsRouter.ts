import { Router } from 'express';
import type { AppDeps } from '../../appDeps';
import { authOf } from '../../auth/authContext';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { sendStatement } from './sendStatement';

/**
 * GET /api/statements?account&from&to&format: the signed-in customer's statement (docs/api.md "Statements"), from
 * the event store. Staff produce any customer's through GET /api/audit/users/:id/statements (auditRouter.ts).
 */
export function createStatementsRouter(deps: AppDeps): Router {
  const router = Router();
  router.get('/statements', requireAuth(deps), requireRole('customer', 'admin'), async (req, res) => {
    await sendStatement({ store: deps.store, logger: deps.logger, routingNumber: deps.config.BANK_ROUTING_NUMBER }, authOf(req).userId, req, res);
  });
  return router;
}
