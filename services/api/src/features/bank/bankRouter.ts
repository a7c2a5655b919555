import { bankDetailsOf } from '@bank/domain';
import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../../appDeps';

/**
 * GET /bank (public): `{data: {name, routingNumber, address, phone, email}}`, the routing number as configured
 * (BANK_ROUTING_NUMBER), the address on one line ("1200 Summit Plaza, Denver, CO 80202, United States"), as the
 * messages print it.
 */
export function createBankRouter(deps: AppDeps): Router {
  const router = Router();
  const details = bankDetailsOf(deps.config.BANK_ROUTING_NUMBER);
  router.get('/bank', (_req: Request, res: Response) => {
    res.set('Cache-Control', 'public, max-age=300');
    res.json({ data: details });
  });
  return router;
}
