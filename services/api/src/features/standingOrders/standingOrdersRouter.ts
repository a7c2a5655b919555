import { randomUUID } from 'node:crypto';
import { deterministicId } from '@bank/commands';
import { customerDecider, standingOrderDecider, standingOrderInput, streams, type StandingOrder, type StandingOrderCommand } from '@bank/domain';
import { isUuid } from '@bank/platform';
import { paymentPinMatches, resolveRecipient, runStandingOrder, type PinAttemptGuard, type StandingOrderRunnerDeps } from '@bank/transfers';
import { Router, type Request, type Response } from 'express';
import { readPoolOf, type AppDeps } from '../../appDeps';
import { businessDateOf } from '../businessDate/appBooks';
import { authOf } from '../../auth/authContext';
import { createPinAttemptGuard } from '../../auth/pinAttemptLimiter';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { commandScope, loadState, runCommand } from '../../commands/runCommand';
import { NotFoundError } from '../../http/httpErrors';
import { latestPosition, sendCommandResult } from '../../http/sendCommandResult';
import { customerTarget } from '../admin/customerTarget';
import { presentStandingOrder, type StandingOrderDto } from './presentStandingOrder';

export const STANDING_ORDER_CREATED_MESSAGE = 'Standing order created';
export const STANDING_ORDER_PAUSED_MESSAGE = 'Standing order paused';
export const STANDING_ORDER_RESUMED_MESSAGE = 'Standing order resumed';
export const STANDING_ORDER_CANCELLED_MESSAGE = 'Standing order cancelled';
const NOT_FOUND = 'Standing order not found';

export interface StandingOrdersRouterOptions {
  readonly pinAttempts?: PinAttemptGuard;
}

async function orderNow(deps: AppDeps, orderId: string): Promise<StandingOrder | undefined> {
  const { state } = await loadState(deps, standingOrderDecider, streams.standingOrder(orderId));
  return state.status === 'none' ? undefined : state;
}

/** A user's orders, newest first: the list from rm.standing_orders, each order as its stream has it now. */
async function ordersOf(deps: AppDeps, userId: string): Promise<StandingOrderDto[]> {
  const { rows } = await readPoolOf(deps).query<{ id: string }>('SELECT id FROM rm.standing_orders WHERE payer_id = $1 ORDER BY created_at DESC, id', [userId]);
  const orders = await Promise.all(rows.map((row) => orderNow(deps, row.id)));
  return orders.filter((order): order is StandingOrder => order?.payerId === userId).map(presentStandingOrder);
}

function orderIdParam(req: Request): string {
  const id = req.params.id;
  if (typeof id !== 'string' || !isUuid(id)) throw new NotFoundError(NOT_FOUND);
  return id.toLowerCase();
}

/**
 * Standing orders (docs/api.md, "Standing orders"):
 *   POST   /standing-orders             the body of POST /transaction/transfer + schedule; the pin is checked as a
 *                                       transfer checks it; an order whose first date is today pays it at once
 *   GET    /standing-orders             the signed-in user's orders with status, next date, latest occurrences
 *   POST   /standing-orders/:id/pause   …/resume; DELETE /standing-orders/:id cancels
 *   GET    /user/admin/:id/standing-orders   (admin) a customer's orders
 */
export function createStandingOrdersRouter(deps: AppDeps, options: StandingOrdersRouterOptions = {}): Router {
  const router = Router();
  const auth = requireAuth(deps);
  const customerArea = requireRole('customer', 'admin');
  const pinAttempts = options.pinAttempts ?? createPinAttemptGuard(deps);
  const now = (): Date => deps.now?.() ?? new Date();
  const runner: StandingOrderRunnerDeps = {
    commands: deps.commands,
    pool: deps.pool,
    transfer: { signals: deps.signals, creditWaitMs: 0 },
    clock: { now },
    catchUpDays: deps.transfers.standingOrderCatchUpDays,
    businessDate: () => businessDateOf(deps),
    logger: deps.logger,
  };

  router.post('/standing-orders', auth, customerArea, async (req: Request, res: Response) => {
    const input = standingOrderInput.parse(req.body ?? {});
    const { userId } = authOf(req);
    const scope = commandScope(req, res);
    const orderId = scope.commandId ? deterministicId(`${scope.commandId}:standing-order`) : randomUUID();
    const [{ state: customer }, recipient] = await Promise.all([
      loadState(deps, customerDecider, streams.customer(userId)),
      resolveRecipient(deps, input.accountNumber, input.to),
    ]);
    const pinMatches = await paymentPinMatches(
      { pinKeys: deps.pinKeys, pinAttempts, ...(deps.verifyLegacyPin ? { verifyLegacyPin: deps.verifyLegacyPin } : {}) },
      userId,
      customer,
      input.paymentPin,
    );
    const at = now();
    // "Today" is the business date (in calendar mode the UTC date; in manual mode the date the bank stands at).
    const today = await businessDateOf(deps);
    const command: StandingOrderCommand = { type: 'CreateStandingOrder', orderId, payerId: userId, customer, recipient, pinMatches, ...input, today, now: at.toISOString() };
    const created = await runCommand(deps, scope, { decider: standingOrderDecider, streamId: streams.standingOrder(orderId), command });
    // An order whose first date is today pays it now (the same runner code as the COB's; it pays each date once).
    const paid = input.schedule.firstDate <= today ? await runStandingOrder(runner, orderId) : [];
    const order = await orderNow(deps, orderId);
    if (!order) throw new Error(`Standing order ${orderId} is not stored`);
    const position = paid.length > 0 ? (await deps.store.readStream(streams.standingOrder(orderId))).at(-1)?.position : created.position;
    await sendCommandResult(res, 201, { message: STANDING_ORDER_CREATED_MESSAGE, data: presentStandingOrder(order) }, latestPosition(created.position, position));
  });

  router.get('/standing-orders', auth, customerArea, async (req: Request, res: Response) => {
    res.json({ data: await ordersOf(deps, authOf(req).userId) });
  });

  const change = (type: 'PauseStandingOrder' | 'ResumeStandingOrder' | 'CancelStandingOrder', message: string) => async (req: Request, res: Response) => {
    const orderId = orderIdParam(req);
    const { userId } = authOf(req);
    const at = now();
    const command: StandingOrderCommand =
      type === 'ResumeStandingOrder' ? { type, userId, today: await businessDateOf(deps), now: at.toISOString() } : { type, userId, now: at.toISOString() };
    const result = await runCommand(deps, commandScope(req, res), { decider: standingOrderDecider, streamId: streams.standingOrder(orderId), command });
    // Resumed on a day it pays: paid now rather than at the date's close of business.
    const paid = type === 'ResumeStandingOrder' && result.events.length > 0 ? await runStandingOrder(runner, orderId) : [];
    const order = await orderNow(deps, orderId);
    if (!order) throw new NotFoundError(NOT_FOUND);
    const position = paid.length > 0 ? (await deps.store.readStream(streams.standingOrder(orderId))).at(-1)?.position : undefined;
    await sendCommandResult(res, 200, { message, data: presentStandingOrder(order) }, latestPosition(result.position, position));
  };
  router.post('/standing-orders/:id/pause', auth, customerArea, change('PauseStandingOrder', STANDING_ORDER_PAUSED_MESSAGE));
  router.post('/standing-orders/:id/resume', auth, customerArea, change('ResumeStandingOrder', STANDING_ORDER_RESUMED_MESSAGE));
  router.delete('/standing-orders/:id', auth, customerArea, change('CancelStandingOrder', STANDING_ORDER_CANCELLED_MESSAGE));

  router.get('/user/admin/:id/standing-orders', auth, requireRole('admin'), async (req: Request, res: Response) => {
    const customer = await customerTarget(deps, String(req.params.id));
    res.json({ data: await ordersOf(deps, customer.userId) });
  });
  return router;
}
