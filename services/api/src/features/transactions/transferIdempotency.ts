import type { PinAttemptGuard } from '@bank/transfers';
import type { Request, Response } from 'express';
import type { AppDeps } from '../../appDeps';
import type { ApiPinAttemptGuard } from '../../auth/pinAttemptLimiter';
import { HttpError, ServiceUnavailableError } from '../../http/httpErrors';
import {
  DIFFERENT_REQUEST_MESSAGE,
  doneRecord,
  IDEMPOTENCY_TTL_SECONDS,
  idempotencyRedisKey,
  isRememberedAnswer,
  recordMatches,
  replayRecord,
  requestFingerprint,
  type DoneRecord,
} from '../../http/idempotency';

/**
 * The Idempotency-Key of POST /transaction/transfer (docs/transfers.md, "A transfer's Idempotency-Key"). The general
 * middleware (http/idempotency.ts) claims a key in Redis before the route runs and stores the answer after it: two
 * commands. A transfer needs neither on its happy path: its ids derive from the key, so the log itself says whether
 * the key was used (the payer's account has recorded the debit) and what the first answer was (the debit as decided;
 * its status follows from the account and the transfer's kind). So:
 *
 *   - the key's record is READ with the wrong-pin limit's counters, in the one Redis command a right pin costs
 *     (`admitsRightPinReading`), or on its own when the pin goes through the counted attempt;
 *   - a record is WRITTEN only for an answer the log cannot give again: a refusal (422, 400, 404, …) and an internal
 *     transfer answered `pending` (its credit took longer than the request waited; a repeat would find it completed);
 *   - a repeat with no record decides nothing (the debit is recorded) and is answered from the log: the debit's event
 *     (the same transaction the first answer showed), compared with the request (422 for a different one).
 */
export interface TransferKey {
  readonly key: string;
  /** The pin guard for this request: its one read also reads the key's record. */
  readonly pinAttempts: PinAttemptGuard | undefined;
  /** Before the decision: sends nothing, but throws RememberedAnswer when the key has a record of this request. */
  beforeDecision(): Promise<void>;
  /** Sends the remembered answer when `error` is RememberedAnswer (true), else false. */
  replayed(error: unknown, res: Response): boolean;
  /** The answer about to be sent can be given again from the log: it is not recorded. */
  derivable(res: Response): void;
  /** The answer about to be sent is a repeat's: it is not recorded again. */
  repeat(res: Response): void;
}

/** Thrown by `beforeDecision`: the key's remembered answer is sent instead of deciding. */
class RememberedAnswer extends Error {
  override readonly name = 'RememberedAnswer';
  constructor(readonly record: DoneRecord) {
    super('The Idempotency-Key has a remembered answer');
  }
}

const NOT_RECORDED = Symbol('transfer answer not recorded');

function hasReading(guard: PinAttemptGuard): guard is ApiPinAttemptGuard {
  return typeof (guard as Partial<ApiPinAttemptGuard>).admitsRightPinReading === 'function';
}

/**
 * The key's handling for one transfer request (undefined without a key). Installs, on `res.json`, the write of the
 * answers a repeat could not learn from the log. Call after authentication and before anything can answer.
 */
export function transferKey(
  deps: Pick<AppDeps, 'redis' | 'config' | 'keys' | 'logger'>,
  req: Request,
  res: Response,
  key: string | undefined,
  userId: string,
  guard: PinAttemptGuard | undefined,
): TransferKey | undefined {
  if (key === undefined) return undefined;
  const redisKey = idempotencyRedisKey(deps.config.REDIS_PREFIX, `user:${userId}`, key);
  const ring = deps.keys.idempotency;
  let read = false;
  let value: string | null = null;

  const send = res.json.bind(res);
  res.json = (body: unknown) => {
    const locals = res.locals as Record<symbol, unknown>;
    if (locals[NOT_RECORDED] === true || !isRememberedAnswer(res.statusCode, body)) return send(body);
    const record = doneRecord(res, { fingerprint: requestFingerprint(ring.current.key, req), keyId: ring.current.id }, body);
    // Sent once the record is stored, or failed to be (the log still holds the key: the repeat decides nothing).
    deps.redis.set(redisKey, JSON.stringify(record), 'EX', IDEMPOTENCY_TTL_SECONDS).then(
      () => send(body),
      (error: unknown) => {
        deps.logger.warn({ err: error }, 'transfer: the answer of an Idempotency-Key could not be recorded');
        send(body);
      },
    );
    return res;
  };
  const notRecorded = (answer: Response) => {
    (answer.locals as Record<symbol, unknown>)[NOT_RECORDED] = true;
  };

  const pinAttempts: PinAttemptGuard | undefined =
    guard && hasReading(guard)
      ? {
          attempt: (user, check) => guard.attempt(user, check),
          async admitsRightPin(user) {
            const answer = await guard.admitsRightPinReading(user, redisKey);
            read = true;
            value = answer.value;
            return answer.admitted;
          },
        }
      : guard;

  return {
    key,
    pinAttempts,
    async beforeDecision() {
      if (!read) {
        try {
          value = await deps.redis.get(redisKey);
        } catch (error) {
          throw Object.assign(new ServiceUnavailableError('Payments are unavailable for a moment, please try again', 5), { cause: error });
        }
        read = true;
      }
      if (value === null) return;
      const record = JSON.parse(value) as DoneRecord | { readonly state: 'pending' };
      // A claim left by the general middleware (a process of the version before this one, during an upgrade) holds no
      // answer: the log decides, as for a key with no record.
      if (record.state !== 'done') return;
      if (!recordMatches(ring, record, req)) {
        notRecorded(res);
        throw new HttpError(422, DIFFERENT_REQUEST_MESSAGE);
      }
      throw new RememberedAnswer(record);
    },
    replayed(error, answer) {
      if (!(error instanceof RememberedAnswer)) return false;
      notRecorded(answer);
      replayRecord(answer, error.record);
      return true;
    },
    derivable: notRecorded,
    repeat: notRecorded,
  };
}
