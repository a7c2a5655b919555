import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docker-compose.yml');
const text = readFileSync(file, 'utf8');
const compose = parse(text) as { services: Record<string, { ports?: string[]; environment?: Record<string, string>; command?: string[] }> };

/** Variables whose value is a secret: compose must refuse to start without them, never fall back to a value. */
const SECRETS = ['POSTGRES_PASSWORD', 'REDIS_PASSWORD', 'JWT_KEYS', 'JWT_SECRET', 'IDEMPOTENCY_KEYS', 'PIN_KEYS', 'CHAIN_KEYS', 'CHECKPOINT_KEYS', 'ADMIN_EMAIL', 'ADMIN_PASSWORD'];
const APP_SECRETS = ['JWT_KEYS', 'IDEMPOTENCY_KEYS', 'PIN_KEYS', 'CHAIN_KEYS', 'CHECKPOINT_KEYS', 'ADMIN_EMAIL', 'ADMIN_PASSWORD'];

describe('docker-compose.yml', () => {
  it('publishes only the app port: the event store, PostgreSQL and Redis stay on the private network', () => {
    const published = Object.entries(compose.services).filter(([, service]) => service.ports !== undefined);
    expect(published.map(([name]) => name)).toEqual(['app']);
    expect(compose.services.app?.ports).toEqual(['3000:3000']);
  });

  it('requires every secret from the environment (${VAR:?message}), with no fallback value', () => {
    const uses = [...text.matchAll(/\$\{([A-Z_]+)([^}]*)\}/g)].map(([, name, rest]) => ({ name: name!, rest: rest! }));
    const secretUses = uses.filter((use) => SECRETS.includes(use.name));
    expect(new Set(secretUses.map((use) => use.name))).toEqual(new Set(['POSTGRES_PASSWORD', 'REDIS_PASSWORD', ...APP_SECRETS]));
    for (const use of secretUses) expect(use.rest, use.name).toMatch(/^:\?./);
    const app = compose.services.app?.environment ?? {};
    expect(app.NODE_ENV).toBe('production');
    for (const name of APP_SECRETS) expect(app[name], name).toMatch(new RegExp(`^\\$\\{${name}:\\?`));
    expect(app.JWT_SECRET).toBeUndefined();
  });

  it('gives PostgreSQL and Redis passwords, and the app the same ones', () => {
    expect(compose.services.postgres?.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(compose.services.redis?.command?.join(' ')).toContain('--requirepass "$$REDIS_PASSWORD"');
    expect(compose.services.app?.environment?.DATABASE_URL).toMatch(/^postgres:\/\/postgres:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/bank$/);
    expect(compose.services.app?.environment?.REDIS_URL).toMatch(/^redis:\/\/:\$\{REDIS_PASSWORD:\?[^}]*\}@redis:6379$/);
  });
});
