import { isNoticeKind, notificationSettings, saveNotificationSettings, SECURITY_NOTICES_LOCKED_MESSAGE, SECURITY_NOTICE_KINDS, type NoticeKind } from '@bank/mail';
import type { Request, Response } from 'express';
import type { AppDeps } from '../../appDeps';
import { authOf } from '../../auth/authContext';
import { BadRequestError, UnprocessableError } from '../../http/httpErrors';
import { mailTablesReady } from './mailOf';

/** GET /user/notifications: {data: [{kind, enabled, locked}]} for every kind. */
export function getNotifications(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    await mailTablesReady(deps);
    res.json({ data: await notificationSettings(deps.pool, authOf(req).userId) });
  };
}

/** The body of PUT /user/notifications: `{[kind]: boolean}`, known kinds only. */
function changesOf(body: unknown): Map<NoticeKind, boolean> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequestError('Send an object of notification kinds and true or false');
  const changes = new Map<NoticeKind, boolean>();
  for (const [kind, enabled] of Object.entries(body)) {
    if (!isNoticeKind(kind)) throw new BadRequestError(`Unknown notification kind: ${kind.slice(0, 50)}`, [{ path: kind.slice(0, 50), message: 'Unknown notification kind' }]);
    if (typeof enabled !== 'boolean') throw new BadRequestError(`${kind} must be true or false`, [{ path: kind, message: 'Must be true or false' }]);
    changes.set(kind, enabled);
  }
  return changes;
}

/** PUT /user/notifications {[kind]: boolean}: the list as GET gives it; 422 for a security notice turned off (nothing saved). */
export function putNotifications(deps: AppDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    const changes = changesOf(req.body);
    if ([...changes].some(([kind, enabled]) => !enabled && (SECURITY_NOTICE_KINDS as readonly string[]).includes(kind))) {
      throw new UnprocessableError(SECURITY_NOTICES_LOCKED_MESSAGE);
    }
    await mailTablesReady(deps);
    const userId = authOf(req).userId;
    await saveNotificationSettings(deps.pool, userId, changes);
    res.json({ data: await notificationSettings(deps.pool, userId) });
  };
}
