import { randomUUID } from 'node:crypto';
import { customerDecider, isRegistered, requireActiveCustomer, streams } from '@bank/domain';
import { confirmEmail, findLiveToken, isEmailConfirmed, messageIdOf, useToken } from '@bank/mail';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../appDeps';
import { authOf } from '../../auth/authContext';
import { loadState } from '../../commands/runCommand';
import { BadRequestError } from '../../http/httpErrors';
import { INVALID_LINK_MESSAGE } from '../auth/passwordReset';
import type { UserJson } from '../users/userShape';
import { apiMailOf, mailTablesReady } from './mailOf';

export const EMAIL_CONFIRMED_MESSAGE = 'E-mail address confirmed';
export const LINK_SENT_AGAIN_MESSAGE = 'We have sent a new link to your e-mail address';
export const ALREADY_CONFIRMED_MESSAGE = 'Your e-mail address is already confirmed';

export const verifyEmailInput = z.object({ token: z.string({ error: 'Token is required' }).min(1, 'Token is required').max(200) });

const now = (deps: Pick<AppDeps, 'now'>) => deps.now?.() ?? new Date();

/** The user as the API shows it, with `emailVerified`: a confirmation is recorded for the user's current address. */
export async function withEmailVerified<U extends Pick<UserJson, '_id' | 'email'>>(deps: AppDeps, user: U): Promise<U & { emailVerified: boolean }> {
  await mailTablesReady(deps);
  return { ...user, emailVerified: await isEmailConfirmed(deps.pool, user._id, user.email) };
}

/** POST /auth/verify-email {token}: 200; 400 'Invalid or expired link' (used, expired, or for an address no longer the user's). */
export function verifyEmail(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = verifyEmailInput.parse(req.body);
    await mailTablesReady(deps);
    const token = await findLiveToken(deps.pool, 'verifyEmail', input.token, now(deps));
    if (!token) throw new BadRequestError(INVALID_LINK_MESSAGE);
    const { state } = await loadState(deps, customerDecider, streams.customer(token.userId));
    if (!isRegistered(state) || state.status !== 'active' || state.email !== token.email) throw new BadRequestError(INVALID_LINK_MESSAGE);
    if (!(await useToken(deps.pool, token.messageId, now(deps)))) throw new BadRequestError(INVALID_LINK_MESSAGE);
    await confirmEmail(deps.pool, token.userId, token.email, now(deps));
    res.status(200).json({ message: EMAIL_CONFIRMED_MESSAGE });
  };
}

/** POST /user/verify-email (customer): a new confirmation link to the current address, 202 (rate limited per user). */
export function sendVerificationAgain(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const customer = requireActiveCustomer((await loadState(deps, customerDecider, streams.customer(authOf(req).userId))).state);
    const outbox = await apiMailOf(deps);
    if (await isEmailConfirmed(deps.pool, customer.userId, customer.email)) {
      res.status(200).json({ message: ALREADY_CONFIRMED_MESSAGE });
      return;
    }
    await outbox.enqueue({ id: messageIdOf('verifyEmail', randomUUID()), kind: 'verifyEmail', userId: customer.userId, to: customer.email, data: { firstName: customer.firstName } });
    res.status(202).json({ message: LINK_SENT_AGAIN_MESSAGE });
  };
}
