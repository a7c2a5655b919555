import { randomUUID } from 'node:crypto';
import { deterministicId } from '@bank/core';
import {
  ACCOUNT_DISABLED_MESSAGE,
  changePasswordInput,
  customerDecider,
  INVALID_CREDENTIALS_MESSAGE,
  isRegistered,
  requireActiveCustomer,
  signinInput,
  signupInput,
  streams,
} from '@bank/domain';
import type { Request, Response } from 'express';
import type { AppDeps } from '../../appDeps';
import { authOf } from '../../auth/authContext';
import { hashSecret, verifyAgainstDecoy, verifySecret } from '../../auth/passwords';
import { revokeToken, signToken } from '../../auth/tokens';
import { nowIso } from '../../commands/clock';
import { commandScope, loadState, runCommand } from '../../commands/runCommand';
import { ForbiddenError, UnauthorizedError } from '../../http/httpErrors';
import { sendCommandResult } from '../../http/sendCommandResult';
import { userAfterCommand, USER_NOT_FOUND_MESSAGE } from '../users/currentUser';
import { registerUser } from '../users/registerUser';
import { findSignInRecord, findUserById } from '../users/userQueries';
import { NotFoundError } from '../../http/httpErrors';
import type { FailureLimiter } from '../../http/rateLimiter';

export const SIGNED_UP_MESSAGE = 'Account created successfully';
export const SIGNED_IN_MESSAGE = 'Signed in successfully';
export const SIGNED_OUT_MESSAGE = 'Signed out successfully';
export const PASSWORD_CHANGED_MESSAGE = 'Password changed successfully';

/** POST /auth/signup: a customer with a fresh account (see registerUser); 201 {message, data: user}; 409 e-mail taken. */
export function signUp(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = signupInput.parse(req.body);
    const scope = commandScope(req, res);
    // With an Idempotency-Key, the same key always means the same user: a retry resumes the registration.
    const userId = scope.commandId ? deterministicId(`${scope.commandId}:user`) : randomUUID();
    const { position } = await registerUser(deps, { ...scope, actor: { id: userId, role: 'customer' } }, { ...input, userId, role: 'customer' });
    await sendCommandResult(res, 201, async ({ stale }: { stale: boolean }) => ({ message: SIGNED_UP_MESSAGE, data: await userAfterCommand(deps, userId, stale) }), position);
  };
}

/**
 * POST /auth/signin: 200 {message, token, user}. Unknown e-mail, closed user and wrong password are the same 401
 * (and take as long); a disabled user with the right password is 403. Failed attempts are limited per e-mail.
 */
export function signIn(deps: AppDeps, limiter: FailureLimiter) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = signinInput.parse(req.body);
    await limiter.assertAllowed(input.email);
    const record = await findSignInRecord(deps.pool, input.email);
    const matches = record ? await verifySecret(input.password, record.password_hash) : await verifyAgainstDecoy(input.password);
    if (!record || !matches) {
      await limiter.recordFailure(input.email);
      throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE);
    }
    if (record.is_disabled) throw new ForbiddenError(ACCOUNT_DISABLED_MESSAGE);
    await limiter.reset(input.email);
    const user = await findUserById(deps.pool, record.id);
    if (!user) throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE);
    const { token } = signToken(deps.config, { userId: record.id, role: user.role }, deps.now?.());
    res.status(200).json({ message: SIGNED_IN_MESSAGE, token, user });
  };
}

/** POST /auth/signout: the token is revoked until it would have expired. */
export function signOut(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const auth = authOf(req);
    await revokeToken(deps.redis, deps.config.REDIS_PREFIX, auth, deps.now?.());
    res.status(200).json({ message: SIGNED_OUT_MESSAGE });
  };
}

/** GET /auth/user and GET /user/me: {data: user}. */
export function currentUser(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const user = await findUserById(deps.pool, authOf(req).userId);
    if (!user) throw new NotFoundError(USER_NOT_FOUND_MESSAGE);
    res.json({ data: user });
  };
}

/** POST /auth/change-password {oldPassword, newPassword}: {message}; 422 'Old password is incorrect'. */
export function changePassword(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = changePasswordInput.parse(req.body);
    const { userId } = authOf(req);
    const streamId = streams.customer(userId);
    const current = requireActiveCustomer((await loadState(deps, customerDecider, streamId)).state);
    const matches = await verifySecret(input.oldPassword, current.passwordHash);
    const newPasswordHash = matches ? await hashSecret(input.newPassword, deps.bcryptCost) : '';
    const result = await runCommand(deps, commandScope(req, res), {
      decider: customerDecider,
      streamId,
      command: (state) => ({
        type: 'ChangePassword' as const,
        // Compared with the hash read above: a password changed in between makes this attempt fail, not pass.
        oldPasswordMatches: matches && isRegistered(state) && state.passwordHash === current.passwordHash,
        newPasswordHash,
        now: nowIso(deps),
      }),
    });
    await sendCommandResult(res, 200, { message: PASSWORD_CHANGED_MESSAGE }, result.position);
  };
}
