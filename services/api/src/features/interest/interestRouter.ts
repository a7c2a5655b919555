import { interestRatesDecider, streams, type InterestRatesCommand } from '@bank/domain';
import { isUuid } from '@bank/platform';
import { Router, type Request, type Response } from 'express';
import type { AppDeps } from '../../appDeps';
import { authOf } from '../../auth/authContext';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { commandScope, runCommand } from '../../commands/runCommand';
import { NotFoundError } from '../../http/httpErrors';
import { sendCommandResult } from '../../http/sendCommandResult';
import { businessDateOf } from '../businessDate/appBooks';
import { interestRateInput } from './rateInput';
import { listRates } from './ratesRead';
import { sendInterest } from './sendInterest';

/**
 * Interest (API.md "Interest", docs/interest.md):
 *   GET /rates                         (public) each account type's rate in force and the changes scheduled, with APY
 *   PUT /admin/rates                   (admin) {account, annualRate, effectiveFrom}: schedules a change from a business
 *                                      date after the current one (422 'Rates change from tomorrow at the earliest')
 *   GET /interest?year&format          (customer) accrued this month, paid this year, the year's payments; PDF statement
 *   GET /audit/users/:id/interest      (auditor, admin) the same for any customer
 */
export function createInterestRouter(deps: AppDeps): Router {
  const router = Router();
  const auth = requireAuth(deps);
  const now = (): Date => deps.now?.() ?? new Date();

  router.get('/rates', async (_req: Request, res: Response) => {
    res.json({ data: await listRates(deps) });
  });

  router.put('/admin/rates', auth, requireRole('admin'), async (req: Request, res: Response) => {
    const input = interestRateInput.parse(req.body ?? {});
    const { userId } = authOf(req);
    const businessDate = await businessDateOf(deps);
    const command: InterestRatesCommand = { type: 'ScheduleInterestRate', ...input, businessDate, actorId: userId, now: now().toISOString() };
    const result = await runCommand(deps, commandScope(req, res), { decider: interestRatesDecider, streamId: streams.interestRates(), command });
    await sendCommandResult(res, 200, async () => ({ data: await listRates(deps) }), result.position);
  });

  router.get('/interest', auth, requireRole('customer', 'admin'), async (req: Request, res: Response) => {
    await sendInterest(deps, authOf(req).userId, req, res);
  });

  router.get('/audit/users/:id/interest', auth, requireRole('auditor', 'admin'), async (req: Request, res: Response) => {
    const id = req.params.id;
    if (typeof id !== 'string' || !isUuid(id)) throw new NotFoundError('User not found');
    await sendInterest(deps, id.toLowerCase(), req, res);
  });
  return router;
}
