import type { Role } from '@bank/domain';
import type { Request } from 'express';
import type { AppDeps } from '../../appDeps';
import { clientInfo } from '../../auth/sessions/clientInfo';
import { openSession } from '../../auth/sessions/sessionStore';
import { NotFoundError, UnauthorizedError } from '../../http/httpErrors';
import { INVALID_CREDENTIALS_MESSAGE } from '@bank/domain';
import { withEmailVerified } from '../mail/emailConfirmation';
import { noticeNewDevice } from '../mail/newDeviceNotice';
import { userAfterCommand } from '../users/currentUser';
import type { UserJson } from '../users/userShape';

export const SIGNED_IN_MESSAGE = 'Signed in successfully';

export interface SignedInAnswer {
  readonly message: string;
  readonly token: string;
  readonly user: UserJson;
}

/** Opens a session for a user who passed every step of sign-in: `{message, token, user}`. */
export async function signedIn(deps: AppDeps, req: Request, userId: string, options: { readonly secondFactor: boolean }): Promise<SignedInAnswer> {
  // The read model's user, or the event store's while the projector has not caught up (a sign-in right after sign-up).
  const user = await userAfterCommand(deps, userId, false).catch((error: unknown) => {
    throw error instanceof NotFoundError ? new UnauthorizedError(INVALID_CREDENTIALS_MESSAGE) : error;
  });
  const client = clientInfo(req);
  const { token, sessionId, newDevice } = await openSession(deps, { userId, role: user.role as Role, secondFactor: options.secondFactor, client });
  if (newDevice) noticeNewDevice(deps, user, sessionId, client);
  return { message: SIGNED_IN_MESSAGE, token, user: await withEmailVerified(deps, user) };
}
