import pg from 'pg';
import { Redis } from 'ioredis';
import { redactUrl } from './database';

/**
 * Before anything starts: can PostgreSQL and Redis be reached? A newcomer's first `npm start` without them gets a few
 * plain lines saying which one, where, and how to start it, instead of a JSON stack trace.
 */
export interface ServiceProblem {
  readonly service: 'PostgreSQL' | 'Redis';
  readonly address: string;
  readonly reason: string;
}

function reasonOf(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  return code && !message?.includes(code) ? `${code}: ${message ?? ''}` : (message ?? String(error));
}

async function checkPostgres(url: string, timeoutMs: number): Promise<ServiceProblem | undefined> {
  // The server, not the database: the bank creates its database when it is missing.
  const server = new URL(url);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString(), connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return { service: 'PostgreSQL', address: redactUrl(url), reason: reasonOf(error) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkRedis(url: string, timeoutMs: number): Promise<ServiceProblem | undefined> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: timeoutMs, retryStrategy: () => null, enableOfflineQueue: false });
  let first: unknown;
  redis.on('error', (error) => {
    first ??= error;
  });
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (error) {
    return { service: 'Redis', address: redactUrl(url), reason: reasonOf(first ?? error) };
  } finally {
    redis.disconnect();
  }
}

/** Thrown by a start that cannot reach its services; `describeServiceProblems` says it for a terminal. */
export class ServicesUnavailableError extends Error {
  override readonly name = 'ServicesUnavailableError';
  constructor(readonly problems: readonly ServiceProblem[]) {
    super(problems.map((p) => `${p.service} is not reachable at ${p.address} (${p.reason})`).join('; '));
  }
}

export async function checkServices(options: { databaseUrl: string; redisUrl?: string; timeoutMs?: number }): Promise<ServiceProblem[]> {
  const timeoutMs = options.timeoutMs ?? 3_000;
  const checks = [checkPostgres(options.databaseUrl, timeoutMs), ...(options.redisUrl ? [checkRedis(options.redisUrl, timeoutMs)] : [])];
  return (await Promise.all(checks)).filter((problem): problem is ServiceProblem => problem !== undefined);
}

const HOW_TO_START: Record<ServiceProblem['service'], string[]> = {
  PostgreSQL: [
    'Debian/Ubuntu:     sudo pg_ctlcluster $(ls /etc/postgresql) main start   (or: sudo systemctl start postgresql)',
    'macOS (Homebrew):  brew services start postgresql@16',
  ],
  Redis: ['Debian/Ubuntu:     sudo systemctl start redis-server   (or: redis-server --daemonize yes)', 'macOS (Homebrew):  brew services start redis'],
};

/** The plain message for a terminal. */
export function describeServiceProblems(problems: readonly ServiceProblem[]): string {
  const lines = ['The bank cannot start:'];
  for (const problem of problems) lines.push(`  ${problem.service} is not reachable at ${problem.address} (${problem.reason})`);
  lines.push('', 'Start it, then run the command again:');
  for (const problem of problems) {
    lines.push(`  ${problem.service}:`);
    for (const line of HOW_TO_START[problem.service]) lines.push(`    ${line}`);
  }
  lines.push('  Or both with Docker:  docker compose up -d postgres redis', '', 'Other addresses: set DATABASE_URL and REDIS_URL (see docs/operations.md).');
  return lines.join('\n');
}
