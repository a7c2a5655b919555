import { createHash, createHmac } from 'node:crypto';
import type { Keyring } from '@bank/platform';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppDeps } from '../appDeps';
import { ConflictError, HttpError, invalidField } from './httpErrors';
import { EVENT_POSITION_HEADER } from './sendCommandResult';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/**
 * A claim's lease: the request holding a key renews it every third of this while it runs, so another attempt may
 * take over only once the holder is gone — an instance that crashed, or whose release could not reach Redis (a
 * partition: the claim then lapses within this long, instead of answering 409 to every retry for a minute after).
 * The renewal only lengthens a lease (PEXPIRE … GT): it never shortens the 24 h of the answer stored in its place.
 */
export const PENDING_LEASE_MS = 10_000;
const WAIT_STEP_MS = 50;
const DEFAULT_WAIT_MS = 5_000;

const KEY = /^[\x21-\x7e]{1,255}$/;
const COMMAND_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Statuses that mean "not done": not remembered, so the same key may try again. */
const NOT_REMEMBERED = new Set([401, 403, 408, 429]);

/**
 * Request fields left out of the fingerprint (any depth, any case): a record must not hold anything derived from a
 * pin, a password or a one-time code, even keyed. So two requests that differ only there are the same request.
 */
export const SECRET_REQUEST_FIELDS: ReadonlySet<string> = new Set([
  'paymentpin',
  'pin',
  'password',
  'oldpassword',
  'newpassword',
  'confirmpassword',
  'repeatpassword',
  'code',
  'recoverycode',
  'secret',
  'token',
  'challenge',
]);

/** Answers carrying one of these (a session token, a TOTP secret, recovery codes) are never stored in Redis. */
const SECRET_ANSWER_FIELDS = ['token', 'secret', 'recoveryCodes', 'otpauthUri', 'qrCode'];

export interface Fingerprinted {
  readonly fingerprint: string;
  /** The idempotency key ring's key that made the fingerprint. */
  readonly keyId: string;
}

interface PendingRecord extends Fingerprinted {
  readonly state: 'pending';
}

export interface DoneRecord extends Fingerprinted {
  readonly state: 'done';
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
}

type IdempotencyRecord = PendingRecord | DoneRecord;

export interface IdempotencyOptions {
  /** Paths (as seen by this middleware) never treated idempotently, e.g. sign-in: its answer is a fresh token. */
  readonly exclude?: readonly string[];
  /** Requests this middleware leaves alone (the upload routes run their own, after authentication and parsing). */
  readonly skip?: (req: Request) => boolean;
  /** How long a concurrent duplicate waits for the first request before 409. */
  readonly waitMs?: number;
  /** A claim's lease (PENDING_LEASE_MS; shorter in tests). */
  readonly leaseMs?: number;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The body without its secret fields (see SECRET_REQUEST_FIELDS); the parser already bounded its depth. */
export function withoutSecretFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecretFields);
  if (typeof value !== 'object' || value === null) return value;
  const kept: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) if (!SECRET_REQUEST_FIELDS.has(name.toLowerCase())) kept[name] = withoutSecretFields(field);
  return kept;
}

/**
 * HMAC-SHA256 (the idempotency keyring's key) of the method, the path and the body without its secret fields: a
 * copy of Redis alone cannot be used to test guesses of anything the request carried.
 */
export function requestFingerprint(key: Buffer, req: Pick<Request, 'method' | 'baseUrl' | 'path' | 'body'>): string {
  return createHmac('sha256', key)
    .update(`${req.method} ${req.baseUrl}${req.path}\n${JSON.stringify(withoutSecretFields(req.body ?? null))}`)
    .digest('hex');
}

function carriesSecrets(body: unknown): boolean {
  return typeof body === 'object' && body !== null && SECRET_ANSWER_FIELDS.some((field) => field in body);
}

/** Whether an answer is kept as the key's record: not one meaning "not done" (401, 403, 408, 429, 5xx), nor a secret. */
export function isRememberedAnswer(status: number, body: unknown): boolean {
  return status < 500 && !NOT_REMEMBERED.has(status) && !carriesSecrets(body);
}

/** The request's Idempotency-Key when it carries one on a command (400 for an unusable one), else undefined. */
export function idempotencyKeyOfCommand(req: Request): string | undefined {
  const key = req.get(IDEMPOTENCY_HEADER);
  if (key === undefined || !COMMAND_METHODS.has(req.method)) return undefined;
  if (!KEY.test(key)) throw invalidField(IDEMPOTENCY_HEADER, `${IDEMPOTENCY_HEADER} must be 1 to 255 visible ASCII characters`);
  return key;
}

/** Where a caller's key is recorded in Redis (a hash: the key itself is never stored). */
export function idempotencyRedisKey(prefix: string, scope: string, key: string): string {
  return `${prefix}idem:${sha256(`${scope}\n${key}`)}`;
}

/** Whether a record was made for this request (compared with the key ring's key that made it). */
export function recordMatches(ring: Keyring, record: Fingerprinted, req: Pick<Request, 'method' | 'baseUrl' | 'path' | 'body'>, currentFingerprint?: string): boolean {
  // A record made with an older key is compared with that key (a retired key cannot vouch: a different request).
  const recordKey = ring.byId(record.keyId);
  if (recordKey === undefined) return false;
  const fingerprint = record.keyId === ring.current.id ? (currentFingerprint ?? requestFingerprint(recordKey, req)) : requestFingerprint(recordKey, req);
  return fingerprint === record.fingerprint;
}

export const DIFFERENT_REQUEST_MESSAGE = `This ${IDEMPOTENCY_HEADER} was already used for a different request`;

/** Sends a remembered answer again, marked as replayed. */
export function replayRecord(res: Response, record: DoneRecord): void {
  res.set(record.headers);
  res.setHeader(REPLAYED_HEADER, 'true');
  res.status(record.status).json(record.body);
}

/** The record of an answer about to be sent (its status, body and X-Event-Position). */
export function doneRecord(res: Response, claim: Fingerprinted, body: unknown): DoneRecord {
  const headers: Record<string, string> = {};
  const position = res.getHeader(EVENT_POSITION_HEADER);
  if (typeof position === 'string') headers[EVENT_POSITION_HEADER] = position;
  return { state: 'done', fingerprint: claim.fingerprint, keyId: claim.keyId, status: res.statusCode, body, headers };
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
 * still running waits for it (up to 5 s, then 409). The same key with a different request is 422 (requests that
 * differ only in secret fields, see SECRET_REQUEST_FIELDS, are the same request). Answers that mean "not done" (401,
 * 403, 429, 5xx) are forgotten so the client may retry with the same key; answers carrying a token or a secret are
 * never stored. Records hold a keyed fingerprint of the request (requestFingerprint), never the request. Mount after
 * authentication and body parsing.
 */
export function idempotency(deps: Pick<AppDeps, 'redis' | 'config'> & { readonly keys: { readonly idempotency: Keyring } }, options: IdempotencyOptions = {}): RequestHandler {
  const exclude = new Set(options.exclude ?? []);
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const leaseMs = options.leaseMs ?? PENDING_LEASE_MS;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (exclude.has(req.path) || options.skip?.(req)) return next();
    // Mounted twice on a path (app-wide and on a route): the first one holds the key.
    if (idempotentCommandId(res) !== undefined) return next();
    const key = idempotencyKeyOfCommand(req);
    if (key === undefined) return next();
    const scope = req.auth ? `user:${req.auth.userId}` : `ip:${req.ip ?? 'unknown'}`;
    const redisKey = idempotencyRedisKey(deps.config.REDIS_PREFIX, scope, key);
    const ring = deps.keys.idempotency;
    const fingerprint = requestFingerprint(ring.current.key, req);
    const deadline = Date.now() + waitMs;

    // Answered already (the request deadline's 503) while this request waited for the key: it must not take the
    // key now — nothing would ever release it, and its renewal would hold it for good.
    const answered = () => res.headersSent || res.writableEnded;
    for (;;) {
      if (answered()) return;
      const pending: PendingRecord = { state: 'pending', fingerprint, keyId: ring.current.id };
      const claimed = await deps.redis.set(redisKey, JSON.stringify(pending), 'PX', leaseMs, 'NX');
      if (claimed === 'OK' && answered()) {
        await deps.redis.del(redisKey).catch(() => undefined);
        return;
      }
      if (claimed === 'OK') {
        res.locals.idempotentCommandId = `idem:${sha256(`${scope}\n${key}`)}`;
        rememberAnswer(deps, res, redisKey, pending, holdLease(deps, redisKey, leaseMs));
        return next();
      }
      const text = await deps.redis.get(redisKey);
      if (text === null) continue; // expired or released in between: try to claim again
      const record = JSON.parse(text) as IdempotencyRecord;
      if (!recordMatches(ring, record, req, fingerprint)) throw new HttpError(422, DIFFERENT_REQUEST_MESSAGE);
      if (record.state === 'done') {
        replayRecord(res, record);
        return;
      }
      if (Date.now() >= deadline) throw new ConflictError(`A request with this ${IDEMPOTENCY_HEADER} is still being processed`);
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
  };
}

/** Renews a claim's lease while its request runs; `release()` stops (the answer is stored or the claim dropped). */
function holdLease(deps: Pick<AppDeps, 'redis'>, redisKey: string, leaseMs: number): { release(): void } {
  const timer = setInterval(() => void deps.redis.pexpire(redisKey, leaseMs, 'GT').catch(() => undefined), leaseMs / 3);
  timer.unref();
  return { release: () => clearInterval(timer) };
}

/** Wraps res.json: the answer is stored (or the claim released) before it is sent. */
function rememberAnswer(deps: Pick<AppDeps, 'redis'>, res: Response, redisKey: string, claim: Fingerprinted, lease: { release(): void }): void {
  const send = res.json.bind(res);
  let settled = false;
  res.on('close', () => {
    lease.release();
    if (!settled) void deps.redis.del(redisKey).catch(() => undefined);
  });
  res.json = (body: unknown) => {
    settled = true;
    lease.release();
    const write: Promise<unknown> = isRememberedAnswer(res.statusCode, body)
      ? deps.redis.set(redisKey, JSON.stringify(doneRecord(res, claim, body)), 'EX', IDEMPOTENCY_TTL_SECONDS)
      : deps.redis.del(redisKey);
    write.then(
      () => send(body),
      () => send(body),
    );
    return res;
  };
}
