import { randomUUID } from 'node:crypto';
import {
  changePasswordInput,
  customerDecider,
  emailReservationDecider,
  isDomainError,
  isRegistered,
  normalizeEmail,
  staffPasswordField,
  streams,
  type Customer,
} from '@bank/domain';
import { endTokens, findLiveToken, giveBackCodeAttempt, messageIdOf, RESET_REQUEST_PREFIX, takeCodeAttempt, useToken } from '@bank/mail';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../../appDeps';
import { isStaff } from '../../auth/authContext';
import type { AuthLimits } from '../../auth/authLimits';
import { authSettingsOf } from '../../auth/authSettings';
import { hashSecret } from '../../auth/passwords';
import { matchRecoveryCode } from '../../auth/secondFactor/recoveryCodes';
import { decryptSecret } from '../../auth/secondFactor/secretBox';
import { matchingStep } from '../../auth/secondFactor/totp';
import { claimStep } from '../../auth/secondFactor/usedSteps';
import { revokeSessions } from '../../auth/sessions/sessionStore';
import { nowIso } from '../../commands/clock';
import { loadState, runCommand, type CommandScope } from '../../commands/runCommand';
import { BadRequestError, UnauthorizedError } from '../../http/httpErrors';
import { requestIdOf } from '../../http/requestId';
import { sendCommandResult } from '../../http/sendCommandResult';
import { apiMailOf } from '../mail/mailOf';

export const FORGOT_PASSWORD_MESSAGE = 'If an account exists for this e-mail, we have sent a link to reset your password';
export const PASSWORD_RESET_MESSAGE = 'Password reset successfully';
export const INVALID_LINK_MESSAGE = 'Invalid or expired link';
export const INVALID_CODE_MESSAGE = 'Invalid code';
/** At most this many reset messages an hour to one address (silently: the answer stays the same). */
export const RESET_MESSAGES_PER_HOUR = 3;

export const forgotPasswordInput = z.object({ email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').max(254, 'Email is too long') });

export const resetPasswordInput = z.object({
  token: z.string({ error: 'Token is required' }).min(1, 'Token is required').max(200),
  newPassword: changePasswordInput.shape.newPassword,
  code: z.string().max(20).optional(),
  recoveryCode: z.string().max(40).optional(),
});

const now = (deps: Pick<AppDeps, 'now'>) => deps.now?.() ?? new Date();

/** Counts one reset message to the address; false past the hour's limit. */
async function takeResetMessage(deps: AppDeps, email: string): Promise<boolean> {
  const key = `${deps.config.REDIS_PREFIX}mail:reset-messages:${email}`;
  const [[, count]] = (await deps.redis.multi().incr(key).expire(key, 3600, 'NX').exec()) as [[unknown, number], unknown];
  return count <= RESET_MESSAGES_PER_HOUR;
}

/** Who may get a reset link: an active user with the right to sign in, staff only with a second factor to give. */
function resettable(customer: Customer | undefined): customer is Customer {
  if (!customer || customer.status !== 'active' || customer.isDisabled) return false;
  return !isStaff(customer.role) || customer.secondFactor !== null;
}

async function sendResetLink(deps: AppDeps, email: string): Promise<void> {
  const holder = (await loadState(deps, emailReservationDecider, streams.email(email))).state.heldBy;
  if (!holder) return;
  const { state } = await loadState(deps, customerDecider, streams.customer(holder));
  const customer = isRegistered(state) ? state : undefined;
  if (!resettable(customer) || customer.email !== email) return;
  if (!(await takeResetMessage(deps, email))) {
    deps.logger.info({ userId: customer.userId }, 'Password reset: the address had its messages for this hour; nothing sent');
    return;
  }
  const outbox = await apiMailOf(deps);
  await outbox.enqueue({ id: messageIdOf('passwordReset', randomUUID()), kind: 'passwordReset', userId: customer.userId, to: customer.email, data: { firstName: customer.firstName } });
}

/**
 * POST /auth/forgot-password {email}: always 202 with the same message, before any look-up, so that an unknown
 * address answers like a known one and in the same time; the link goes out after the answer (at most 3 an hour to
 * one address).
 */
export function forgotPassword(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = forgotPasswordInput.parse(req.body);
    const email = normalizeEmail(input.email);
    res.status(202).json({ message: FORGOT_PASSWORD_MESSAGE });
    void sendResetLink(deps, email).catch((error: unknown) => deps.logger.error({ err: error }, 'Could not queue a password reset message'));
  };
}

/** The second factor given with a reset: a current TOTP code (its step claimed) or an unused recovery code. */
async function secondFactorMatches(deps: AppDeps, scope: CommandScope, customer: Customer, input: z.infer<typeof resetPasswordInput>): Promise<boolean> {
  const factor = customer.secondFactor;
  if (!factor) return false;
  const keys = authSettingsOf(deps).secondFactorKeys;
  if (input.code) {
    const step = matchingStep(decryptSecret(keys, customer.userId, factor.secret), input.code.trim(), now(deps));
    return step !== undefined && (await claimStep(deps.pool, customer.userId, step));
  }
  if (!input.recoveryCode) return false;
  const index = matchRecoveryCode(keys, customer.userId, input.recoveryCode, factor.recoveryCodes);
  try {
    await runCommand(deps, scope, { decider: customerDecider, streamId: streams.customer(customer.userId), command: { type: 'UseRecoveryCode', index, now: nowIso(deps) } });
    return true;
  } catch (error) {
    if (isDomainError(error) && error.code === 'invalid_code') return false;
    throw error;
  }
}

/**
 * POST /auth/reset-password {token, newPassword, code?, recoveryCode?}: 200 and every session ended; 400 'Invalid or
 * expired link' for a link used, expired, ended or unknown; with a second factor a code or a recovery code is
 * required (401 'Invalid code', the link still usable; the fifth wrong code ends it). Staff need 12 characters.
 * Success also clears the address's failed sign-ins.
 */
export function resetPassword(deps: AppDeps, limits: AuthLimits) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = resetPasswordInput.parse(req.body);
    const token = await findLiveToken(deps.pool, 'passwordReset', input.token, now(deps));
    if (!token) throw new BadRequestError(INVALID_LINK_MESSAGE);
    const { state } = await loadState(deps, customerDecider, streams.customer(token.userId));
    const customer = isRegistered(state) ? state : undefined;
    if (!resettable(customer) || customer.email !== token.email) throw new BadRequestError(INVALID_LINK_MESSAGE);
    if (isStaff(customer.role)) {
      const staff = staffPasswordField('New password').safeParse(input.newPassword);
      if (!staff.success) {
        const message = staff.error.issues[0]?.message ?? 'Invalid password';
        throw new BadRequestError(message, [{ path: 'newPassword', message }]);
      }
    }
    const scope: CommandScope = { actor: { id: customer.userId, role: customer.role }, requestId: `${RESET_REQUEST_PREFIX}${requestIdOf(res)}` };
    if (customer.secondFactor) {
      // Counted before the code is compared, as every code is (docs/security.md): one of the link's five attempts,
      // taken in one statement, so that guesses sent at once cannot all be compared while the count is read.
      if (!(await takeCodeAttempt(deps.pool, token.messageId))) throw new BadRequestError(INVALID_LINK_MESSAGE);
      if (!(await secondFactorMatches(deps, scope, customer, input))) throw new UnauthorizedError(INVALID_CODE_MESSAGE);
      await giveBackCodeAttempt(deps.pool, token.messageId);
    }
    const passwordHash = await hashSecret(input.newPassword, deps.bcryptCost);
    if (!(await useToken(deps.pool, token.messageId, now(deps)))) throw new BadRequestError(INVALID_LINK_MESSAGE);
    const changed = await runCommand(deps, scope, {
      decider: customerDecider,
      streamId: streams.customer(customer.userId),
      command: { type: 'ChangePassword', oldPasswordMatches: true, newPasswordHash: passwordHash, now: nowIso(deps) },
    });
    await endTokens(deps.pool, customer.userId, 'passwordReset', now(deps));
    await revokeSessions(deps, customer.userId, 'password-changed');
    // The failed sign-ins that may have led here no longer hold the new password back.
    await limits.signInEmail.reset(customer.email);
    await sendCommandResult(res, 200, { message: PASSWORD_RESET_MESSAGE }, changed.position);
  };
}
