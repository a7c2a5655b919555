import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { quoteIdent } from '@bank/platform';
import { dockerEngine } from './dockerEngine';

/**
 * Test infrastructure: every test file gets a fresh PostgreSQL database (created here, dropped by `drop`)
 * and its own Redis key prefix, on the local servers. Where they are not reachable and a Docker engine is,
 * testcontainers starts them (postgres:16 and redis:7, the images of docker-compose.yml) for the test file (each
 * file has its own module state, so each starts its own), and removes them when its process exits; otherwise the
 * helper fails saying what to start. A server named by TEST_DATABASE_URL / TEST_REDIS_URL is never replaced by a
 * container: when it does not answer, the helper fails.
 */
const LOCAL_PG = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let servers: Promise<{ pgAdminUrl: string; redisUrl: string }> | undefined;

async function reachablePg(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function reachableRedis(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000, retryStrategy: () => null });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

async function resolveServers(): Promise<{ pgAdminUrl: string; redisUrl: string }> {
  let pgAdminUrl = LOCAL_PG;
  let redisUrl = LOCAL_REDIS;
  const [pgOk, redisOk] = await Promise.all([reachablePg(LOCAL_PG), reachableRedis(LOCAL_REDIS)]);
  if (pgOk && redisOk) return { pgAdminUrl, redisUrl };
  const missing = [!pgOk && `PostgreSQL at ${LOCAL_PG}`, !redisOk && `Redis at ${LOCAL_REDIS}`].filter(Boolean).join(' and ');
  const named = [!pgOk && process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL', !redisOk && process.env.TEST_REDIS_URL && 'TEST_REDIS_URL'].filter(Boolean);
  if (named.length > 0) {
    throw new Error(`Tests need ${missing} (set by ${named.join(' and ')}), which does not answer; no container replaces a server named there.`);
  }
  const docker = await dockerEngine();
  if (!docker.available) {
    throw new Error(
      `Tests need ${missing}, and no Docker engine is available to start them: ${docker.reason}. ` +
        `Start them (docker compose up -d postgres redis, or see docs/operations.md), set TEST_DATABASE_URL / TEST_REDIS_URL, ` +
        `or install and start Docker.`,
    );
  }
  const { GenericContainer, Wait } = await import('testcontainers');
  if (!pgOk) {
    const container = await new GenericContainer('postgres:16')
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start();
    pgAdminUrl = `postgres://postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres`;
  }
  if (!redisOk) {
    const container = await new GenericContainer('redis:7').withExposedPorts(6379).start();
    redisUrl = `redis://${container.getHost()}:${container.getMappedPort(6379)}`;
  }
  return { pgAdminUrl, redisUrl };
}

export interface TestDatabase {
  /** Connection string of the fresh database. */
  readonly url: string;
  readonly name: string;
  /** Drops the database (terminating its connections). */
  drop(): Promise<void>;
}

/** Creates a fresh, empty database for one test file. */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  servers ??= resolveServers();
  const { pgAdminUrl } = await servers;
  const name = `bank_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase().slice(0, 30)}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
  } finally {
    await admin.end();
  }
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: pgAdminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface TestRedis {
  readonly url: string;
  /** A key prefix unique to this test file, e.g. `test:3f2a…:`. */
  readonly prefix: string;
  /** Deletes every key under the prefix. */
  clean(): Promise<void>;
}

export async function createTestRedis(): Promise<TestRedis> {
  servers ??= resolveServers();
  const { redisUrl } = await servers;
  const prefix = `test:${randomUUID().slice(0, 8)}:`;
  return {
    url: redisUrl,
    prefix,
    async clean() {
      const redis = new Redis(redisUrl);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
          cursor = next;
          if (keys.length) await redis.del(...keys);
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    },
  };
}
