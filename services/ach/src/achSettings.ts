import { ConfigError } from '@bank/platform';
import { z } from 'zod';

/**
 * Where the bank's ACH files go and come from (on top of @bank/platform's Config: DATA_DIR, BANK_ROUTING_NUMBER).
 * Without ACH_SFTP_URL (development, `npm start`), files are written to DATA_DIR/ach/outbox/ and read from
 * DATA_DIR/ach/inbox/.
 */
const sftpUrl = z
  .string()
  .trim()
  .transform((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a URL sftp://user@host:port/path' });
      return z.NEVER;
    }
    if (url.protocol !== 'sftp:' || url.hostname === '' || url.username === '') {
      ctx.addIssue({ code: 'custom', message: 'must be sftp://user@host[:port]/path (a user and a host are required)' });
      return z.NEVER;
    }
    if (url.password !== '') {
      ctx.addIssue({ code: 'custom', message: 'must not hold a password: the bank signs in with a key (ACH_SFTP_KEY_FILE)' });
      return z.NEVER;
    }
    return {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port === '' ? 22 : Number(url.port),
      username: decodeURIComponent(url.username),
      /** The remote base directory ('' = the login directory). */
      path: decodeURIComponent(url.pathname).replace(/\/+$/, ''),
    };
  });

const folder = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/, 'must be a relative folder name (letters, digits, . _ -)')
  .refine((value) => !value.split('/').includes('..'), 'must not climb out of the base directory');

const achSettingsSchema = z
  .object({
    /** sftp://user@host:port/path of the ODFI's server; unset = files in DATA_DIR/ach/. */
    ACH_SFTP_URL: sftpUrl.optional(),
    /** The private key (OpenSSH or PEM) the bank signs in with; required with ACH_SFTP_URL. */
    ACH_SFTP_KEY_FILE: z.string().trim().min(1).optional(),
    /**
     * The server's host key fingerprint as `ssh-keygen -l` prints it (SHA256:…): a server answering with another
     * key is refused. Required in production with ACH_SFTP_URL.
     */
    ACH_SFTP_HOST_KEY_SHA256: z
      .string()
      .trim()
      .regex(/^SHA256:[A-Za-z0-9+/]{43}$/, 'must be a fingerprint as ssh-keygen -l prints it: SHA256: and 43 base64 characters')
      .optional(),
    /** Under the base directory: where the bank puts its outbound files, and where the ODFI leaves returns and incoming files. */
    ACH_SFTP_OUTBOX: folder.default('outbox'),
    ACH_SFTP_INBOX: folder.default('inbox'),
    /**
     * The cut-offs (calendar mode): wall-clock times, UTC, `HH:MM` separated by commas, at which the worker builds a
     * file of every waiting entry and transmits it. Manual mode builds files only on POST /admin/ach/files.
     */
    ACH_CUTOFFS: z
      .string()
      .trim()
      .regex(/^([01]\d|2[0-3]):[0-5]\d(\s*,\s*([01]\d|2[0-3]):[0-5]\d)*$/, 'must be times HH:MM (UTC) separated by commas, e.g. 10:30,16:00')
      .transform((value) => [...new Set(value.split(',').map((time) => time.trim()))].sort())
      .default(['10:30', '16:00']),
    /** How often the worker looks at the clock for a cut-off and at the inbox for returns and incoming files. */
    ACH_POLL_EVERY_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
    /** How long a connection may take before the attempt fails. */
    ACH_SFTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  })
  .superRefine((settings, ctx) => {
    if (settings.ACH_SFTP_URL && !settings.ACH_SFTP_KEY_FILE) {
      ctx.addIssue({ code: 'custom', path: ['ACH_SFTP_KEY_FILE'], message: 'is required with ACH_SFTP_URL' });
    }
  });

export type AchSettings = z.infer<typeof achSettingsSchema>;

/** Reads the settings from an environment; throws a ConfigError naming every bad variable. */
export function parseAchSettings(env: Record<string, string | undefined>): AchSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = achSettingsSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  if (env.NODE_ENV === 'production' && result.data.ACH_SFTP_URL && !result.data.ACH_SFTP_HOST_KEY_SHA256) {
    throw new ConfigError('Invalid configuration:\n  ACH_SFTP_HOST_KEY_SHA256: is required in production with ACH_SFTP_URL (the server must be known)');
  }
  return result.data;
}
