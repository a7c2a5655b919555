import {
  ACCOUNT_DISABLED_MESSAGE,
  confirmSecondFactorInput,
  customerDecider,
  enrolChallengeInput,
  isDomainError,
  isRegistered,
  recoveryCodesLeft,
  removeSecondFactorInput,
  requireActiveCustomer,
  secondFactorSignInInput,
  streams,
  type Customer,
  type EncryptedSecret,
} from '@bank/domain';
import type { Position } from '@bank/eventstore';
import type { Request, Response } from 'express';
import type pg from 'pg';
import type { AppDeps } from '../../appDeps';
import { takeAttempts, type TakenAttempts } from '../../auth/attemptLimiter';
import { authOf, isStaff } from '../../auth/authContext';
import type { AuthLimits } from '../../auth/authLimits';
import { authSettingsOf } from '../../auth/authSettings';
import { verifySecret } from '../../auth/passwords';
import { completeChallenge, findLiveChallenge, keepPendingSecret, type Challenge } from '../../auth/secondFactor/challenges';
import { hashRecoveryCode, matchRecoveryCode, newRecoveryCodes } from '../../auth/secondFactor/recoveryCodes';
import { decryptSecret, encryptSecret } from '../../auth/secondFactor/secretBox';
import { deleteSetup, findSetup, saveSetup } from '../../auth/secondFactor/setups';
import { enrolmentPicture, matchingStep, newTotpSecret } from '../../auth/secondFactor/totp';
import { claimStep, resetStep } from '../../auth/secondFactor/usedSteps';
import { limitAddressOf } from '../../auth/sessions/clientInfo';
import { revokeSessions } from '../../auth/sessions/sessionStore';
import { nowIso } from '../../commands/clock';
import { commandScope, loadState, runCommand, type CommandScope } from '../../commands/runCommand';
import { ConflictError, ForbiddenError, UnauthorizedError, UnprocessableError } from '../../http/httpErrors';
import { sendCommandResult } from '../../http/sendCommandResult';
import { signedIn } from './signInAnswer';

export const INVALID_CODE_MESSAGE = 'Invalid code';
export const CHALLENGE_EXPIRED_MESSAGE = 'Your sign-in has expired, please sign in again';
export const SETUP_MISSING_MESSAGE = 'Start the set-up again: no authenticator is waiting to be confirmed';
export const SECOND_FACTOR_ON_MESSAGE = 'Second factor turned on';
export const SECOND_FACTOR_OFF_MESSAGE = 'Second factor turned off';
export const STAFF_KEEP_SECOND_FACTOR_MESSAGE = 'Staff must keep a second factor';

const now = (deps: AppDeps) => deps.now?.() ?? new Date();

async function activeUser(deps: AppDeps, userId: string): Promise<Customer> {
  const { state } = await loadState(deps, customerDecider, streams.customer(userId));
  if (!isRegistered(state) || state.status === 'closed') throw new UnauthorizedError(CHALLENGE_EXPIRED_MESSAGE);
  if (state.isDisabled) throw new ForbiddenError(ACCOUNT_DISABLED_MESSAGE);
  return state;
}

/** A code of the user's enrolled secret within ±1 step, whose step is newer than any accepted before (claimed). */
async function totpMatches(deps: AppDeps, db: Pick<pg.PoolClient, 'query'>, customer: Customer, code: string): Promise<boolean> {
  if (!customer.secondFactor) return false;
  const secret = decryptSecret(authSettingsOf(deps).secondFactorKeys, customer.userId, customer.secondFactor.secret);
  const step = matchingStep(secret, code, now(deps));
  return step !== undefined && (await claimStep(db, customer.userId, step));
}

/** Records the enrolment (the decider refuses a second one) with ten fresh recovery codes; returns them, in clear. */
async function enrol(deps: AppDeps, scope: CommandScope, customer: Customer, sealed: EncryptedSecret): Promise<{ recoveryCodes: string[]; position: Position | undefined }> {
  const keys = authSettingsOf(deps).secondFactorKeys;
  const recoveryCodes = newRecoveryCodes();
  const { position } = await runCommand(deps, scope, {
    decider: customerDecider,
    streamId: streams.customer(customer.userId),
    command: {
      type: 'EnrolSecondFactor',
      secret: sealed,
      recoveryCodes: recoveryCodes.map((code) => hashRecoveryCode(keys, customer.userId, code)),
      codeMatches: true,
      now: nowIso(deps),
    },
  });
  return { recoveryCodes, position };
}

/** The challenge the body names, live; the address's attempt is taken first (a bad challenge is a failure too). */
async function liveChallenge(deps: AppDeps, limits: AuthLimits, req: Request, challenge: string): Promise<{ found: Challenge; attempts: TakenAttempts }> {
  const addressAttempt = await takeAttempts([limits.codeAddress, limitAddressOf(req)]);
  const found = await findLiveChallenge(deps, challenge);
  if (!found) throw new UnauthorizedError(CHALLENGE_EXPIRED_MESSAGE);
  const userAttempt = await takeAttempts([limits.codeUser, found.userId]);
  return {
    found,
    attempts: {
      async giveBack() {
        await Promise.all([addressAttempt.giveBack(), userAttempt.giveBack()]);
      },
    },
  };
}

/**
 * POST /auth/second-factor/enrol {challenge}: staff leading through enrolment during sign-in. 200 {secret,
 * otpauthUri, qrCode}; the same secret while the challenge lives (a reload shows the same QR code).
 */
export function enrolDuringSignIn(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = enrolChallengeInput.parse(req.body);
    const found = await findLiveChallenge(deps, input.challenge);
    if (!found || found.purpose !== 'enrol') throw new UnauthorizedError(CHALLENGE_EXPIRED_MESSAGE);
    const customer = await activeUser(deps, found.userId);
    const keys = authSettingsOf(deps).secondFactorKeys;
    const sealed = found.pendingSecret ?? (await keepPendingSecret(deps, found, encryptSecret(keys, customer.userId, newTotpSecret())));
    if (!sealed) throw new UnauthorizedError(CHALLENGE_EXPIRED_MESSAGE);
    const secret = decryptSecret(keys, customer.userId, sealed);
    res.set('Cache-Control', 'no-store').json(await enrolmentPicture(secret, customer.email));
  };
}

/**
 * POST /auth/second-factor {challenge, code} | {challenge, recoveryCode}: the second step of sign-in. 200 {message,
 * token, user} (+ recoveryCodes when it completes an enrolment, + recoveryCodesLeft after a recovery code);
 * 401 'Invalid code'. Wrong codes are limited per user and per address, each attempt taken before the check.
 */
export function completeSignIn(deps: AppDeps, limits: AuthLimits) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = secondFactorSignInInput.parse(req.body);
    const { found, attempts } = await liveChallenge(deps, limits, req, input.challenge);
    const customer = await activeUser(deps, found.userId);
    const scope = commandScope(req, res, { id: customer.userId, role: customer.role });
    const outcome = await completeChallenge(deps, found, async (client, locked) => {
      if (locked.purpose === 'enrol') {
        if (!input.code || !locked.pendingSecret) throw new UnauthorizedError(INVALID_CODE_MESSAGE);
        const secret = decryptSecret(authSettingsOf(deps).secondFactorKeys, customer.userId, locked.pendingSecret);
        const step = matchingStep(secret, input.code, now(deps));
        if (step === undefined) throw new UnauthorizedError(INVALID_CODE_MESSAGE);
        await resetStep(client, customer.userId, step);
        const { recoveryCodes, position } = await enrol(deps, scope, customer, locked.pendingSecret);
        return { body: { recoveryCodes }, position };
      }
      if (input.code) {
        if (!(await totpMatches(deps, client, customer, input.code))) throw new UnauthorizedError(INVALID_CODE_MESSAGE);
        return { body: {}, position: undefined };
      }
      const index = customer.secondFactor
        ? matchRecoveryCode(authSettingsOf(deps).secondFactorKeys, customer.userId, input.recoveryCode ?? '', customer.secondFactor.recoveryCodes)
        : null;
      try {
        const result = await runCommand(deps, scope, {
          decider: customerDecider,
          streamId: streams.customer(customer.userId),
          command: { type: 'UseRecoveryCode', index, now: nowIso(deps) },
        });
        return { body: { recoveryCodesLeft: isRegistered(result.state) && result.state.status === 'active' ? recoveryCodesLeft(result.state) : 0 }, position: result.position };
      } catch (error) {
        if (isDomainError(error) && error.code === 'invalid_code') throw new UnauthorizedError(INVALID_CODE_MESSAGE);
        throw error;
      }
    });
    if (!outcome) throw new UnauthorizedError(CHALLENGE_EXPIRED_MESSAGE);
    await attempts.giveBack();
    const answer = await signedIn(deps, req, customer.userId, { secondFactor: true });
    // An enrolment completed or a recovery code used is a command: X-Event-Position of its event.
    await sendCommandResult(res, 200, { ...answer, ...outcome.value.body }, outcome.value.position);
  };
}

/** GET /auth/second-factor: {data: {enabled, enrolledAt, recoveryCodesLeft, required}} for the signed-in user. */
export function secondFactorStatus(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const auth = authOf(req);
    const customer = requireActiveCustomer((await loadState(deps, customerDecider, streams.customer(auth.userId))).state);
    res.json({ data: { ...statusOf(customer), required: isStaff(customer.role) && authSettingsOf(deps).staffSecondFactor === 'required' } });
  };
}

export function statusOf(customer: Customer): { enabled: boolean; enrolledAt: string | null; recoveryCodesLeft: number } {
  return { enabled: customer.secondFactor !== null, enrolledAt: customer.secondFactor?.enrolledAt ?? null, recoveryCodesLeft: recoveryCodesLeft(customer) };
}

/** POST /auth/second-factor/setup (signed in): a new secret to confirm; 200 {secret, otpauthUri, qrCode}; 409 when on. */
export function setUpSecondFactor(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const auth = authOf(req);
    const customer = requireActiveCustomer((await loadState(deps, customerDecider, streams.customer(auth.userId))).state);
    if (customer.secondFactor) throw new ConflictError('The second factor is already turned on');
    const secret = newTotpSecret();
    await saveSetup(deps, customer.userId, encryptSecret(authSettingsOf(deps).secondFactorKeys, customer.userId, secret));
    res.set('Cache-Control', 'no-store').json(await enrolmentPicture(secret, customer.email));
  };
}

/** POST /auth/second-factor/confirm {code} (signed in, after setup): 200 {message, recoveryCodes}; 422 'Invalid code'. */
export function confirmSecondFactor(deps: AppDeps, limits: AuthLimits) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = confirmSecondFactorInput.parse(req.body);
    const auth = authOf(req);
    const attempts = await takeAttempts([limits.codeUser, auth.userId], [limits.codeAddress, limitAddressOf(req)]);
    const customer = requireActiveCustomer((await loadState(deps, customerDecider, streams.customer(auth.userId))).state);
    if (customer.secondFactor) throw new ConflictError('The second factor is already turned on');
    const sealed = await findSetup(deps, auth.userId);
    if (!sealed) throw new UnprocessableError(SETUP_MISSING_MESSAGE);
    const secret = decryptSecret(authSettingsOf(deps).secondFactorKeys, auth.userId, sealed);
    const step = matchingStep(secret, input.code, now(deps));
    const keys = authSettingsOf(deps).secondFactorKeys;
    const recoveryCodes = newRecoveryCodes();
    // A wrong code is refused by the decider ('Invalid code', 422) and appends nothing.
    const result = await runCommand(deps, commandScope(req, res), {
      decider: customerDecider,
      streamId: streams.customer(auth.userId),
      command: {
        type: 'EnrolSecondFactor',
        secret: sealed,
        recoveryCodes: recoveryCodes.map((code) => hashRecoveryCode(keys, auth.userId, code)),
        codeMatches: step !== undefined,
        now: nowIso(deps),
      },
    });
    if (step !== undefined) await resetStep(deps.pool, auth.userId, step);
    await deleteSetup(deps, auth.userId);
    await attempts.giveBack();
    await sendCommandResult(res.set('Cache-Control', 'no-store'), 200, { message: SECOND_FACTOR_ON_MESSAGE, recoveryCodes }, result.position);
  };
}

/**
 * DELETE /auth/second-factor {password, code}: a customer turns it off (staff 403). Wrong passwords and codes are
 * limited per user (taken before the checks); the decider refuses either. Every other session ends.
 */
export function removeSecondFactor(deps: AppDeps, limits: AuthLimits) {
  return async (req: Request, res: Response): Promise<void> => {
    const auth = authOf(req);
    if (isStaff(auth.role)) throw new ForbiddenError(STAFF_KEEP_SECOND_FACTOR_MESSAGE);
    const input = removeSecondFactorInput.parse(req.body);
    const attempts = await takeAttempts([limits.passwordUser, auth.userId], [limits.codeUser, auth.userId], [limits.codeAddress, limitAddressOf(req)]);
    const customer = requireActiveCustomer((await loadState(deps, customerDecider, streams.customer(auth.userId))).state);
    const passwordMatches = await verifySecret(input.password, customer.passwordHash);
    const codeMatches = passwordMatches && (await totpMatches(deps, deps.pool, customer, input.code));
    const result = await runCommand(deps, commandScope(req, res), {
      decider: customerDecider,
      streamId: streams.customer(auth.userId),
      command: { type: 'RemoveSecondFactor', passwordMatches, codeMatches, now: nowIso(deps) },
    });
    await attempts.giveBack();
    await revokeSessions(deps, auth.userId, 'second-factor-removed', auth.sessionId);
    await sendCommandResult(res, 200, { message: SECOND_FACTOR_OFF_MESSAGE }, result.position);
  };
}
