import type { AppDeps } from '../appDeps';

/** The projector is "ready" while the oldest event it has not applied is younger than this. */
export const MAX_PROJECTOR_LAG_MS = 10_000;
const CHECK_TIMEOUT_MS = 2_000;

export interface CheckResult {
  readonly ok: boolean;
  readonly error?: string;
  readonly [detail: string]: unknown;
}

export interface Readiness {
  readonly ready: boolean;
  readonly checks: {
    readonly database: CheckResult;
    readonly redis: CheckResult;
    readonly eventStore: CheckResult;
    readonly projector: CheckResult;
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function check(run: () => Promise<CheckResult | void>): Promise<CheckResult> {
  try {
    return (await withTimeout(run(), CHECK_TIMEOUT_MS)) ?? { ok: true };
  } catch (error) {
    // Only the kind of failure: connection strings and SQL stay in the server's log.
    return { ok: false, error: error instanceof Error && /no answer within/.test(error.message) ? 'timeout' : 'unavailable' };
  }
}

/** Database, Redis, event store and projector lag (the age of the oldest event not yet in the read models). */
export async function checkReadiness(deps: Pick<AppDeps, 'pool' | 'redis' | 'store' | 'projection' | 'now'>): Promise<Readiness> {
  const [database, redis, eventStore, projector] = await Promise.all([
    check(async () => {
      await deps.pool.query('SELECT 1');
    }),
    check(async () => {
      await deps.redis.ping();
    }),
    check(async () => {
      const head = await deps.store.headPosition();
      return { ok: true, position: head ? deps.store.positionToken(head) : null };
    }),
    check(async () => {
      const applied = await deps.projection.appliedPosition();
      const [next] = await deps.store.readAll({ ...(applied ? { after: applied } : {}), limit: 1 });
      const now = deps.now?.() ?? new Date();
      const lagMs = next ? Math.max(0, now.getTime() - next.created.getTime()) : 0;
      const position = applied ? deps.store.positionToken(applied) : null;
      return lagMs > MAX_PROJECTOR_LAG_MS ? { ok: false, error: 'lagging', position, lagMs } : { ok: true, position, lagMs };
    }),
  ]);
  const checks = { database, redis, eventStore, projector };
  return { ready: Object.values(checks).every((c) => c.ok), checks };
}
