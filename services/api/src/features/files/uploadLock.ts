import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../appDeps';
import { ConflictError } from '../../http/httpErrors';

/** Longer than any upload request lasts; a crashed instance's lock ends by itself. */
const LEASE_MS = 60_000;
const RELEASE_IF_OURS = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

export const UPLOAD_IN_PROGRESS_MESSAGE = 'Another upload of yours is still being processed, please try again';

/**
 * One upload per user at a time (across API instances, in Redis): between storing a file and recording it in the
 * user's events, no other upload of the same user may decide which of the user's files are still referenced. A
 * second concurrent upload is 409 at once (the user's own double submission).
 */
export async function withUploadLock<T>(deps: Pick<AppDeps, 'redis' | 'config'>, userId: string, work: () => Promise<T>): Promise<T> {
  const key = `${deps.config.REDIS_PREFIX}files:upload-lock:${userId}`;
  const token = randomUUID();
  if ((await deps.redis.set(key, token, 'PX', LEASE_MS, 'NX')) !== 'OK') throw new ConflictError(UPLOAD_IN_PROGRESS_MESSAGE);
  try {
    return await work();
  } finally {
    await deps.redis.eval(RELEASE_IF_OURS, 1, key, token).catch(() => undefined);
  }
}
