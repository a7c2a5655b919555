import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppDeps } from '../appDeps';
import { ConflictError, HttpError, invalidField } from './httpErrors';
import { EVENT_POSITION_HEADER } from './sendCommandResult';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** How long a request may hold its key before another attempt may take over (a crashed instance's lease). */
const PENDING_LEASE_MS = 60_000;
const WAIT_STEP_MS = 50;
const DEFAULT_WAIT_MS = 5_000;

const KEY = /^[\x21-\x7e]{1,255}$/;
const COMMAND_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Statuses that mean "not done": not remembered, so the same key may try again. */
const NOT_REMEMBERED = new Set([401, 403, 408, 429]);

interface PendingRecord {
  readonly state: 'pending';
  readonly fingerprint: string;
}

interface DoneRecord {
  readonly state: 'done';
  readonly fingerprint: string;
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
}

type IdempotencyRecord = PendingRecord | DoneRecord;

export interface IdempotencyOptions {
  /** Paths (as seen by this middleware) never treated idempotently, e.g. sign-in: its answer is a fresh token. */
  readonly exclude?: readonly string[];
  /** How long a concurrent duplicate waits for the first request before 409. */
  readonly waitMs?: number;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The command id derived from the request's Idempotency-Key (undefined without one): events get ids derived from it. */
export function idempotentCommandId(res: Response): string | undefined {
  const id: unknown = res.locals.idempotentCommandId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * `Idempotency-Key` on commands (POST, PUT, PATCH, DELETE): per caller (the signed-in user, else the client address)
 * for 24 h, the first answer (status, body, X-Event-Position) is remembered in Redis and returned again for the same
 * key, with `Idempotent-Replayed: true`, without running the command again. A duplicate arriving while the first is
 * still running waits for it (up to 5 s, then 409). The same key with a different request is 422. Answers that mean
 * "not done" (401, 403, 429, 5xx) are forgotten so the client may retry with the same key. Mount after authentication
 * and body parsing.
 */
export function idempotency(deps: Pick<AppDeps, 'redis' | 'config'>, options: IdempotencyOptions = {}): RequestHandler {
  const exclude = new Set(options.exclude ?? []);
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const key = req.get(IDEMPOTENCY_HEADER);
    if (key === undefined || !COMMAND_METHODS.has(req.method) || exclude.has(req.path)) return next();
    if (!KEY.test(key)) throw invalidField(IDEMPOTENCY_HEADER, `${IDEMPOTENCY_HEADER} must be 1 to 255 visible ASCII characters`);
    const scope = req.auth ? `user:${req.auth.userId}` : `ip:${req.ip ?? 'unknown'}`;
    const redisKey = `${deps.config.REDIS_PREFIX}idem:${sha256(`${scope}\n${key}`)}`;
    const fingerprint = sha256(`${req.method} ${req.baseUrl}${req.path}\n${JSON.stringify(req.body ?? null)}`);
    const deadline = Date.now() + waitMs;

    for (;;) {
      const pending: PendingRecord = { state: 'pending', fingerprint };
      const claimed = await deps.redis.set(redisKey, JSON.stringify(pending), 'PX', PENDING_LEASE_MS, 'NX');
      if (claimed === 'OK') {
        res.locals.idempotentCommandId = `idem:${sha256(`${scope}\n${key}`)}`;
        rememberAnswer(deps, res, redisKey, fingerprint);
        return next();
      }
      const text = await deps.redis.get(redisKey);
      if (text === null) continue; // expired or released in between: try to claim again
      const record = JSON.parse(text) as IdempotencyRecord;
      if (record.fingerprint !== fingerprint) throw new HttpError(422, `This ${IDEMPOTENCY_HEADER} was already used for a different request`);
      if (record.state === 'done') {
        res.set(record.headers);
        res.setHeader(REPLAYED_HEADER, 'true');
        res.status(record.status).json(record.body);
        return;
      }
      if (Date.now() >= deadline) throw new ConflictError(`A request with this ${IDEMPOTENCY_HEADER} is still being processed`);
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
  };
}

/** Wraps res.json: the answer is stored (or the claim released) before it is sent. */
function rememberAnswer(deps: Pick<AppDeps, 'redis'>, res: Response, redisKey: string, fingerprint: string): void {
  const send = res.json.bind(res);
  let settled = false;
  res.on('close', () => {
    if (!settled) void deps.redis.del(redisKey).catch(() => undefined);
  });
  res.json = (body: unknown) => {
    settled = true;
    const status = res.statusCode;
    let write: Promise<unknown>;
    if (status >= 500 || NOT_REMEMBERED.has(status)) {
      write = deps.redis.del(redisKey);
    } else {
      const headers: Record<string, string> = {};
      const position = res.getHeader(EVENT_POSITION_HEADER);
      if (typeof position === 'string') headers[EVENT_POSITION_HEADER] = position;
      const record: DoneRecord = { state: 'done', fingerprint, status, body, headers };
      write = deps.redis.set(redisKey, JSON.stringify(record), 'EX', IDEMPOTENCY_TTL_SECONDS);
    }
    write.then(
      () => send(body),
      () => send(body),
    );
    return res;
  };
}
