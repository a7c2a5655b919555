import { randomUUID } from 'node:crypto';
import { deterministicId } from '@bank/commands';
import { cardRequestInput, customerDecider, streams } from '@bank/domain';
import { Router } from 'express';
import type { AppDeps } from '../../appDeps';
import { authOf } from '../../auth/authContext';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { nowIso } from '../../commands/clock';
import { commandScope, runCommand } from '../../commands/runCommand';
import { sendCommandResult } from '../../http/sendCommandResult';

export const CARD_REQUESTED_MESSAGE = 'Card request sent we will get back to you';

/** POST /cards/requests {cardType?}: a CardRequested event, listed on the admin's user detail. */
export function createCardsRouter(deps: AppDeps): Router {
  const router = Router();
  router.post('/cards/requests', requireAuth(deps), requireRole('customer', 'admin'), async (req, res) => {
    const input = cardRequestInput.parse(req.body);
    const { userId } = authOf(req);
    const scope = commandScope(req, res);
    const requestId = scope.commandId ? deterministicId(`${scope.commandId}:card`) : randomUUID();
    const result = await runCommand(deps, scope, {
      decider: customerDecider,
      streamId: streams.customer(userId),
      command: { type: 'RequestCard', requestId, cardType: input.cardType, now: nowIso(deps) },
    });
    await sendCommandResult(res, 201, { message: CARD_REQUESTED_MESSAGE }, result.position);
  });
  return router;
}
