import { customerDecider, isRegistered, resetSecondFactorInput, streams, type Customer } from '@bank/domain';
import type { Request, Response } from 'express';
import type { AppDeps } from '../../appDeps';
import { authOf } from '../../auth/authContext';
import { revokeSessions } from '../../auth/sessions/sessionStore';
import { nowIso } from '../../commands/clock';
import { commandScope, loadState, runCommand } from '../../commands/runCommand';
import { NotFoundError } from '../../http/httpErrors';
import { pathParam } from '../../http/pathParam';
import { sendCommandResult } from '../../http/sendCommandResult';
import { USER_NOT_FOUND_MESSAGE } from '../users/currentUser';
import { statusOf } from '../auth/secondFactorHandlers';
import { isUuid } from '@bank/platform';

export const SECOND_FACTOR_RESET_MESSAGE = 'Second factor reset';

/** Any user who is not closed, customer or staff, from the write model (404 otherwise). */
async function userTarget(deps: AppDeps, id: string): Promise<Customer> {
  if (!isUuid(id)) throw new NotFoundError(USER_NOT_FOUND_MESSAGE);
  const { state } = await loadState(deps, customerDecider, streams.customer(id));
  if (!isRegistered(state) || state.status === 'closed') throw new NotFoundError(USER_NOT_FOUND_MESSAGE);
  return state;
}

/** GET /user/admin/:id/second-factor: {data: {enabled, enrolledAt, recoveryCodesLeft}}. */
export function secondFactorOfUser(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    res.json({ data: statusOf(await userTarget(deps, pathParam(req, 'id'))) });
  };
}

/**
 * POST /user/admin/:id/second-factor/reset {reason}: the admin removes a user's second factor (a lost phone), as a
 * staff act recorded in the user's stream with the admin and the reason (SecondFactorReset, in the staff log).
 * A customer then signs in with the password alone; staff enrol again at their next sign-in. Every session of the
 * user ends. Only another admin may reset an admin's (403).
 */
export function resetSecondFactor(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = resetSecondFactorInput.parse(req.body ?? {});
    const target = await userTarget(deps, pathParam(req, 'id'));
    const admin = authOf(req);
    const result = await runCommand(deps, commandScope(req, res), {
      decider: customerDecider,
      streamId: streams.customer(target.userId),
      command: { type: 'ResetSecondFactor', adminId: admin.userId, reason: input.reason, now: nowIso(deps) },
    });
    await revokeSessions(deps, target.userId, 'second-factor-reset');
    await sendCommandResult(res, 200, { message: SECOND_FACTOR_RESET_MESSAGE, data: { enabled: false } }, result.position);
  };
}
