import { z } from 'zod';

const csv = z
  .string()
  .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean));

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .url()
    .refine((url) => /^postgres(ql)?:\/\//.test(url), 'must be a postgres:// or postgresql:// URL')
    .default('postgres://postgres@127.0.0.1:5432/bank'),
  REDIS_URL: z
    .string()
    .url()
    .refine((url) => /^rediss?:\/\//.test(url), 'must be a redis:// or rediss:// URL')
    .default('redis://127.0.0.1:6379'),
  EVENTSTORE_URL: z
    .string()
    .refine((url) => /^(esdb|esdb\+discover|kurrentdb):\/\//.test(url), 'must be an esdb:// URL (unset = PostgreSQL event store)')
    .optional(),
  REDIS_PREFIX: z.string().min(1).default('bank:'),
  JWT_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  JWT_TTL_SECONDS: z.coerce.number().int().positive().default(24 * 60 * 60),
  CORS_ORIGINS: csv.default([]),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(6, 'must be at least 6 characters').optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SETTLEMENT_DELAY_MS: z.coerce.number().int().min(0).default(5000),
  AUDIT_CHECK_EVERY_MS: z.coerce.number().int().positive().default(60 * 60 * 1000),
});

export type Config = z.infer<typeof configSchema> & { readonly JWT_SECRET: string };

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Validates an environment; throws a ConfigError naming every bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = result.data;
  if (!config.JWT_SECRET) {
    if (config.NODE_ENV === 'production') {
      throw new ConfigError('Invalid configuration:\n  JWT_SECRET: required in production (at least 16 characters)');
    }
    return { ...config, JWT_SECRET: 'development-only-secret-change-me' };
  }
  return config as Config;
}

let cached: Config | undefined;

/** The process's configuration, read from process.env once. */
export function loadConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
