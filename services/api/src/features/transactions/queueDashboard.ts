import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { createTransferQueues, type TransferQueues } from '@bank/worker';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppDeps } from '../../appDeps';
import { authOf } from '../../auth/authContext';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';

export const QUEUE_DASHBOARD_PATH = '/api/admin/queues';
export const QUEUE_DASHBOARD_COOKIE = 'bank_queues_token';

export interface QueueDashboardOptions {
  /** The full path the router is mounted at (bull-board builds its links from it). Default /api/admin/queues. */
  readonly basePath?: string;
  /** The queues shown; by default the transfer process's queues on deps.redis under REDIS_PREFIX. */
  readonly queues?: TransferQueues;
}

function cookieValue(req: Request, name: string): string | undefined {
  const header = req.get('Cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * The BullMQ dashboard (bull-board) for admins, mounted at /api/admin/queues.
 *
 * How a browser authenticates: it cannot send the bearer header when navigating, so the admin app opens
 * `/api/admin/queues?token=<the admin's JWT>` once. The token is checked exactly like a bearer token (signature,
 * expiry, revocation, user still present, role admin); then it is stored in an httpOnly, SameSite=Strict cookie
 * scoped to /api/admin/queues (expiring with the token) and the browser is redirected to the same URL without the
 * token, so it does not stay in the address bar or history. Every later request of the dashboard (its page, assets
 * and API calls) carries the cookie, and is checked again the same way. A bearer header works too (scripts).
 * Anyone not signed in gets 401, a signed-in non-admin 403.
 */
export function createQueueDashboard(deps: AppDeps, options: QueueDashboardOptions = {}): Router {
  const basePath = options.basePath ?? QUEUE_DASHBOARD_PATH;
  const queues = options.queues ?? createTransferQueues({ connection: deps.redis, prefix: deps.config.REDIS_PREFIX });
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(basePath);
  createBullBoard({
    queues: [new BullMQAdapter(queues.transfers), new BullMQAdapter(queues.settlement), new BullMQAdapter(queues.maintenance)],
    // @bull-board/express 9.10.1 pins its own copy of @bull-board/api's types (the installed api is 9.10.2); the
    // adapter uses nothing of it at run time.
    serverAdapter: serverAdapter as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'],
    options: { uiConfig: { boardTitle: 'Bank queues' } },
  });

  const router = Router();
  const auth = requireAuth(deps);
  const secure = deps.config.NODE_ENV === 'production';

  // The token: from ?token= (once), else the bearer header, else the cookie.
  router.use((req: Request, _res: Response, next: NextFunction) => {
    const fromQuery = typeof req.query.token === 'string' ? req.query.token.trim() : undefined;
    const token = fromQuery || (req.get('Authorization') ? undefined : cookieValue(req, QUEUE_DASHBOARD_COOKIE));
    if (token) req.headers.authorization = `Bearer ${token}`;
    next();
  });
  router.use(auth, requireRole('admin'));
  router.use((req: Request, res: Response, next: NextFunction) => {
    if (typeof req.query.token !== 'string') return next();
    const { expiresAt } = authOf(req);
    res.cookie(QUEUE_DASHBOARD_COOKIE, req.query.token.trim(), {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path: basePath,
      expires: new Date(expiresAt * 1000),
    });
    const url = new URL(req.originalUrl, 'http://local');
    url.searchParams.delete('token');
    res.redirect(303, `${url.pathname}${url.search}`);
  });
  router.use(serverAdapter.getRouter() as Router);
  return router;
}
