import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../../appDeps';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { sendCommandResult } from '../../http/sendCommandResult';
import { advanceInput } from './advanceInput';
import { booksOf } from './appBooks';

/**
 * The business date (API.md "Business date and close of business"):
 *   GET  /admin/business-date           (admin, auditor) {businessDate, mode, lastClosedDate}
 *   POST /admin/business-date/advance   (admin) {days?}: manual mode only (409 'The business date follows the
 *                                       calendar'); closes the open date and each following one, `days` in all;
 *                                       X-Event-Position of the last close
 */
export function createBusinessDateRouter(deps: AppDeps): Router {
  const router = Router();
  const auth = requireAuth(deps);

  router.get('/admin/business-date', auth, requireRole('admin', 'auditor'), async (_req: Request, res: Response) => {
    res.json({ data: await booksOf(deps).cob.status() });
  });

  router.post('/admin/business-date/advance', auth, requireRole('admin'), async (req: Request, res: Response) => {
    const { days } = advanceInput.parse(req.body ?? {});
    const { businessDate, closed, position } = await booksOf(deps).cob.advance(days);
    // A command like the others: X-Event-Position of the last close appended, answered once the read models hold it.
    await sendCommandResult(res, 200, { data: { businessDate, closed } }, position);
  });
  return router;
}
