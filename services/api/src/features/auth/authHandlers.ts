import { randomUUID } from 'node:crypto';
import { deterministicId } from '@bank/commands';
import {
  ACCOUNT_DISABLED_MESSAGE,
  canSignIn,
  changePasswordInput,
  customerDecider,
  emailReservationDecider,
  initialCustomerState,
  INVALID_CREDENTIALS_MESSAGE,
  isRegistered,
  requireActiveCustomer,
  signinInput,
  signupInput,
  staffPasswordField,
  streams,
} from '@bank/domain';
import type { Request, Response } from 'express';
import type { AppDeps } from '../../appDeps';
import { takeAttempts } from '../../auth/attemptLimiter';
import { authOf, isStaff } from '../../auth/authContext';
import type { AuthLimits } from '../../auth/authLimits';
import { authSettingsOf } from '../../auth/authSettings';
import { hashSecret, verifyAgainstDecoy, verifySecret } from '../../auth/passwords';
import { createChallenge } from '../../auth/secondFactor/challenges';
import { clientAddress, limitAddressOf } from '../../auth/sessions/clientInfo';
import { revokeSession, revokeSessions } from '../../auth/sessions/sessionStore';
import { nowIso } from '../../commands/clock';
import { commandScope, loadState, runCommand } from '../../commands/runCommand';
import { BadRequestError, ForbiddenError, UnauthorizedError } from '../../http/httpErrors';
import { sendCommandResult } from '../../http/sendCommandResult';
import { withEmailVerified } from '../mail/emailConfirmation';
import { userAfterCommand } from '../users/currentUser';
import { registerUser } from '../users/registerUser';
import { signedIn } from './signInAnswer';

export { SIGNED_IN_MESSAGE } from './signInAnswer';
export const SIGNED_UP_MESSAGE = 'Account created successfully';
export const SIGNED_OUT_MESSAGE = 'Signed out successfully';
export const PASSWORD_CHANGED_MESSAGE = 'Password changed successfully';
export const SECOND_FACTOR_REQUIRED_MESSAGE = 'Second factor required';
export const ENROLMENT_REQUIRED_MESSAGE = 'Second factor enrolment required';

/** POST /auth/signup: a customer with a fresh account (see registerUser); 201 {message, data: user}; 409 e-mail taken. */
export function signUp(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = signupInput.parse(req.body);
    const scope = commandScope(req, res);
    // With an Idempotency-Key, the same key always means the same user: a retry resumes the registration.
    const userId = scope.commandId ? deterministicId(`${scope.commandId}:user`) : randomUUID();
    const { position } = await registerUser(deps, { ...scope, actor: { id: userId, role: 'customer' } }, { ...input, userId, role: 'customer' });
    await sendCommandResult(res, 201, async ({ stale }: { stale: boolean }) => ({ message: SIGNED_UP_MESSAGE, data: await withEmailVerified(deps, await userAfterCommand(deps, userId, stale)) }), position);
  };
}

/**
 * POST /auth/signin: 200 {message, token, user}. Unknown e-mail, closed user and wrong password are the same 401
 * (and take as long); a disabled user with the right password is 403. Failed attempts are limited per e-mail and per
 * client address, each attempt taken before the password is checked and given back when it was right.
 *
 * A user with a second factor gets {message: 'Second factor required', secondFactor: 'totp', challenge} instead;
 * staff without one (STAFF_SECOND_FACTOR=required) get {message: 'Second factor enrolment required',
 * secondFactor: 'enrol', challenge}; no token in either (see secondFactorHandlers.ts).
 */
export function signIn(deps: AppDeps, limits: AuthLimits) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = signinInput.parse(req.body);
    const address = clientAddress(req);
    const attempts = await takeAttempts([limits.signInEmail, input.email], [limits.signInAddress, limitAddressOf(req)]);
    // Decided from the event store, never the read models: a user signs in the moment sign-up answers, and an old
    // password stops working the moment a change of password answers, however far behind the projector is.
    const holder = (await loadState(deps, emailReservationDecider, streams.email(input.email))).state.heldBy;
    const state = holder ? (await loadState(deps, customerDecider, streams.customer(holder))).state : initialCustomerState;
    const allowed = canSignIn(state);
    const user = isRegistered(state) && state.status === 'active' ? state : undefined;
    const matches = user ? await verifySecret(input.password, user.passwordHash) : await verifyAgainstDecoy(input.password);
    if (!user || !matches) throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE);
    await attempts.giveBack();
    await limits.signInEmail.reset(input.email);
    if (!allowed.ok) throw new ForbiddenError(ACCOUNT_DISABLED_MESSAGE);

    const hasSecondFactor = user.secondFactor !== null;
    const mustEnrol = !hasSecondFactor && isStaff(user.role) && authSettingsOf(deps).staffSecondFactor === 'required';
    if (hasSecondFactor || mustEnrol) {
      const challenge = await createChallenge(deps, { userId: user.userId, purpose: hasSecondFactor ? 'totp' : 'enrol', address });
      res.status(200).json(
        hasSecondFactor
          ? { message: SECOND_FACTOR_REQUIRED_MESSAGE, secondFactor: 'totp', challenge }
          : { message: ENROLMENT_REQUIRED_MESSAGE, secondFactor: 'enrol', challenge },
      );
      return;
    }
    res.status(200).json(await signedIn(deps, req, user.userId, { secondFactor: false }));
  };
}

/** POST /auth/signout: the token's session is revoked (durably, in PostgreSQL). */
export function signOut(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const auth = authOf(req);
    await revokeSession(deps, auth.userId, auth.sessionId, 'signout');
    res.status(200).json({ message: SIGNED_OUT_MESSAGE });
  };
}

/** GET /auth/user and GET /user/me: {data: user}. */
export function currentUser(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    // The read model's user, or the event store's while the projector has not caught up with a new user.
    res.json({ data: await withEmailVerified(deps, await userAfterCommand(deps, authOf(req).userId, false)) });
  };
}

/**
 * POST /auth/change-password {oldPassword, newPassword}: {message}; 422 'Old password is incorrect'. Wrong old
 * passwords are limited per user (taken before the check). On success every other session of the user ends.
 * Staff passwords need 12 characters.
 */
export function changePassword(deps: AppDeps, limits: AuthLimits) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = changePasswordInput.parse(req.body);
    const auth = authOf(req);
    if (isStaff(auth.role)) {
      const staff = staffPasswordField('New password').safeParse(input.newPassword);
      if (!staff.success) {
        const message = staff.error.issues[0]?.message ?? 'Invalid password';
        throw new BadRequestError(message, [{ path: 'newPassword', message }]);
      }
    }
    const streamId = streams.customer(auth.userId);
    const current = requireActiveCustomer((await loadState(deps, customerDecider, streamId)).state);
    const attempts = await takeAttempts([limits.passwordUser, auth.userId]);
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
    await attempts.giveBack();
    await revokeSessions(deps, auth.userId, 'password-changed', auth.sessionId);
    await sendCommandResult(res, 200, { message: PASSWORD_CHANGED_MESSAGE }, result.position);
  };
}
