import type { AppDeps } from '../appDeps';
import { createAttemptLimiter, type AttemptLimiter } from './attemptLimiter';

export const TOO_MANY_SIGN_INS_MESSAGE = 'Too many failed sign-in attempts, please try again later';
export const TOO_MANY_SIGN_INS_FROM_ADDRESS_MESSAGE = 'Too many failed sign-in attempts from this address, please try again later';
export const TOO_MANY_CODES_MESSAGE = 'Too many incorrect codes, please try again later';
export const TOO_MANY_PASSWORDS_MESSAGE = 'Too many incorrect passwords, please try again later';

/** The failure limits of signing in and of password- or code-confirmed actions (rateLimitConfig.ts). */
export interface AuthLimits {
  /** Wrong passwords per e-mail. */
  readonly signInEmail: AttemptLimiter;
  /** Wrong passwords per client address, whatever the e-mail (password spraying). */
  readonly signInAddress: AttemptLimiter;
  /** Wrong codes and recovery codes per user. */
  readonly codeUser: AttemptLimiter;
  /** Wrong codes and recovery codes per client address. */
  readonly codeAddress: AttemptLimiter;
  /** Wrong current passwords per user (change-password, turning the second factor off). */
  readonly passwordUser: AttemptLimiter;
}

export function createAuthLimits(deps: Pick<AppDeps, 'redis' | 'config' | 'limits'>): AuthLimits {
  const { limits } = deps;
  return {
    signInEmail: createAttemptLimiter(deps, { name: 'signin', limit: limits.signIn, message: TOO_MANY_SIGN_INS_MESSAGE }),
    signInAddress: createAttemptLimiter(deps, { name: 'signin-address', limit: limits.signInPerAddress, message: TOO_MANY_SIGN_INS_FROM_ADDRESS_MESSAGE }),
    codeUser: createAttemptLimiter(deps, { name: 'code', limit: limits.secondFactor, message: TOO_MANY_CODES_MESSAGE }),
    codeAddress: createAttemptLimiter(deps, { name: 'code-address', limit: limits.secondFactorPerAddress, message: TOO_MANY_CODES_MESSAGE }),
    passwordUser: createAttemptLimiter(deps, { name: 'password', limit: limits.passwordCheck, message: TOO_MANY_PASSWORDS_MESSAGE }),
  };
}
