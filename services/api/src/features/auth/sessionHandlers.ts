import type { Request, Response } from 'express';
import type { AppDeps } from '../../appDeps';
import { authOf } from '../../auth/authContext';
import { dismissSignInNotice, listSessions, listSignInNotices, revokeSession, revokeSessions } from '../../auth/sessions/sessionStore';
import { NotFoundError } from '../../http/httpErrors';
import { pathParam } from '../../http/pathParam';
import { isUuid } from '@bank/platform';

export const SESSION_NOT_FOUND_MESSAGE = 'Session not found';
export const SESSION_ENDED_MESSAGE = 'Signed out of that session';
export const OTHER_SESSIONS_ENDED_MESSAGE = 'Signed out everywhere else';
export const NOTICE_NOT_FOUND_MESSAGE = 'Notice not found';

/** GET /auth/sessions: {data: [{id, device, address, createdAt, lastUsedAt, current}]}, most recently used first. */
export function sessionsList(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const auth = authOf(req);
    res.json({ data: await listSessions(deps, auth.userId, auth.sessionId) });
  };
}

/** DELETE /auth/sessions/:id: ends one of the caller's sessions (its token is refused from its next request). */
export function sessionRevoke(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const auth = authOf(req);
    const id = pathParam(req, 'id');
    if (!isUuid(id) || !(await revokeSession(deps, auth.userId, id, 'revoked'))) throw new NotFoundError(SESSION_NOT_FOUND_MESSAGE);
    res.json({ message: SESSION_ENDED_MESSAGE, data: { id, current: id === auth.sessionId } });
  };
}

/** POST /auth/sessions/revoke-others: ends every session of the caller but this one; {message, data: {revoked}}. */
export function sessionsRevokeOthers(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const auth = authOf(req);
    const revoked = await revokeSessions(deps, auth.userId, 'revoke-others', auth.sessionId);
    res.json({ message: OTHER_SESSIONS_ENDED_MESSAGE, data: { revoked } });
  };
}

/** GET /auth/sign-in-notices: sign-ins from a device not used before, not dismissed: {data: [{id, device, address, createdAt}]}. */
export function signInNotices(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    res.json({ data: await listSignInNotices(deps, authOf(req).userId) });
  };
}

/** DELETE /auth/sign-in-notices/:id: dismisses one. */
export function dismissNotice(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const id = pathParam(req, 'id');
    if (!isUuid(id) || !(await dismissSignInNotice(deps, authOf(req).userId, id))) throw new NotFoundError(NOTICE_NOT_FOUND_MESSAGE);
    res.json({ message: 'Notice dismissed' });
  };
}
