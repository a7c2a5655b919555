import type { Role } from '@bank/domain';
import type { Request } from 'express';
import type { AppDeps } from '../../appDeps';
import { clientInfo } from '../../auth/sessions/clientInfo';
import { openSession } from '../../auth/sessions/sessionStore';
import { UnauthorizedError } from '../../http/httpErrors';
import { INVALID_CREDENTIALS_MESSAGE } from '@bank/domain';
import { findUserById } from '../users/userQueries';
import type { UserJson } from '../users/userShape';

export const SIGNED_IN_MESSAGE = 'Signed in successfully';

export interface SignedInAnswer {
  readonly message: string;
  readonly token: string;
  readonly user: UserJson;
}

/** Opens a session for a user who passed every step of sign-in: `{message, token, user}`. */
export async function signedIn(deps: AppDeps, req: Request, userId: string, options: { readonly secondFactor: boolean }): Promise<SignedInAnswer> {
  const user = await findUserById(deps.pool, userId);
  if (!user) throw new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE);
  const { token } = await openSession(deps, { userId, role: user.role as Role, secondFactor: options.secondFactor, client: clientInfo(req) });
  return { message: SIGNED_IN_MESSAGE, token, user };
}
