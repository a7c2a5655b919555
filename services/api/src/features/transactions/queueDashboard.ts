import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { BANK_QUEUES, bullPrefix } from '@bank/transfers';
import { Queue } from 'bullmq';
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppDeps } from '../../appDeps';
import { authOf } from '../../auth/authContext';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { UnauthorizedError } from '../../http/httpErrors';

export const QUEUE_DASHBOARD_PATH = '/api/admin/queues';
export const QUEUE_DASHBOARD_COOKIE = 'bank_queues';
/** POST here (under the dashboard's path, so the cookie reaches it) opens a dashboard session. */
export const QUEUE_DASHBOARD_SESSION_PATH = '/session';
/** How long a dashboard session lasts (less when the admin's token expires sooner). */
export const QUEUE_DASHBOARD_SESSION_SECONDS = 10 * 60;

export interface QueueDashboardOptions {
  /** The full path the router is mounted at (bull-board builds its links from it). Default /api/admin/queues. */
  readonly basePath?: string;
  /** The queues shown; by default the bank's queues (settlement, maintenance) on deps.redis under REDIS_PREFIX. */
  readonly queues?: readonly Queue[];
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
 * Dashboard sessions in Redis. The cookie holds a random 32-byte secret; Redis holds, under the secret's SHA-256,
 * the admin's bearer token encrypted with the secret (AES-256-GCM). Neither alone gives the token: a copy of Redis
 * has no secrets, a stolen cookie is useless once the session ends (at most 10 minutes) or the admin signs out.
 */
function sessionStore(deps: Pick<AppDeps, 'redis' | 'config'>) {
  const keyOf = (secret: Buffer) => `${deps.config.REDIS_PREFIX}queues:session:${createHash('sha256').update(secret).digest('hex')}`;
  return {
    async open(token: string, ttlSeconds: number): Promise<string> {
      const secret = randomBytes(32);
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', secret, iv);
      const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
      await deps.redis.set(keyOf(secret), Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64'), 'EX', ttlSeconds);
      return secret.toString('base64url');
    },
    /** The admin's token behind a cookie value, or undefined (unknown, expired, tampered). */
    async token(cookie: string): Promise<string | undefined> {
      const secret = Buffer.from(cookie, 'base64url');
      if (secret.length !== 32) return undefined;
      const stored = await deps.redis.get(keyOf(secret));
      if (!stored) return undefined;
      const bytes = Buffer.from(stored, 'base64');
      try {
        const decipher = createDecipheriv('aes-256-gcm', secret, bytes.subarray(0, 12));
        decipher.setAuthTag(bytes.subarray(12, 28));
        return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * The BullMQ dashboard (bull-board) for admins, mounted at /api/admin/queues.
 *
 * How a browser gets in: it cannot send the bearer header when navigating, so the admin app first calls
 * `POST /api/admin/queues/session` with the admin's bearer token; the answer sets a cookie (HttpOnly,
 * SameSite=Strict, Secure in production, Path=/api/admin/queues, 10 minutes) naming a dashboard session, and the app
 * then opens /api/admin/queues. Every request of the dashboard (page, assets, its API) carries the cookie; the
 * session gives back the admin's token, which is checked exactly like a bearer token on each request (signature,
 * expiry, revocation, user still present and an admin). No token ever travels in a URL. A bearer header works too
 * (scripts). Anyone not signed in gets 401, a signed-in non-admin 403.
 */
export function createQueueDashboard(deps: AppDeps, options: QueueDashboardOptions = {}): Router {
  const basePath = options.basePath ?? QUEUE_DASHBOARD_PATH;
  const queues = options.queues ?? BANK_QUEUES.map((name) => new Queue(name, { connection: deps.redis, prefix: bullPrefix(deps.config.REDIS_PREFIX) }));
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(basePath);
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue)),
    // @bull-board/express 9.10.1 pins its own copy of @bull-board/api's types (the installed api is 9.10.2); the
    // adapter uses nothing of it at run time.
    serverAdapter: serverAdapter as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'],
    options: { uiConfig: { boardTitle: 'Bank queues' } },
  });

  const router = Router();
  const auth = requireAuth(deps);
  const sessions = sessionStore(deps);
  const secure = deps.config.NODE_ENV === 'production';

  router.post(QUEUE_DASHBOARD_SESSION_PATH, auth, requireRole('admin'), async (req: Request, res: Response) => {
    const { expiresAt } = authOf(req);
    const ttlSeconds = Math.min(QUEUE_DASHBOARD_SESSION_SECONDS, expiresAt - Math.floor(Date.now() / 1000));
    const token = /^Bearer\s+(\S+)/i.exec(req.get('Authorization') ?? '')?.[1];
    if (!token || ttlSeconds <= 0) throw new UnauthorizedError();
    const cookie = await sessions.open(token, ttlSeconds);
    res.cookie(QUEUE_DASHBOARD_COOKIE, cookie, { httpOnly: true, sameSite: 'strict', secure, path: basePath, maxAge: ttlSeconds * 1000 });
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({ message: 'Queue dashboard opened', data: { url: basePath, expiresAt: new Date(Date.now() + ttlSeconds * 1000).toISOString() } });
  });

  // The token: the bearer header, else the dashboard session named by the cookie.
  router.use(async (req: Request, _res: Response, next: NextFunction) => {
    if (req.get('Authorization')) return next();
    const cookie = cookieValue(req, QUEUE_DASHBOARD_COOKIE);
    const token = cookie ? await sessions.token(cookie) : undefined;
    if (token) req.headers.authorization = `Bearer ${token}`;
    next();
  });
  router.use(auth, requireRole('admin'));
  router.use(serverAdapter.getRouter() as Router);
  return router;
}
