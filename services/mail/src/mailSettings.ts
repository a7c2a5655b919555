import { bankIdentity } from '@bank/domain';
import { ConfigError } from '@bank/platform';
import { z } from 'zod';
import { isValidRoutingNumber } from './bankDetails';
import { parseMailbox } from './mimeMessage';

/**
 * The mail settings, read once from the environment:
 *   SMTP_URL             smtp:// or smtps:// (user and password in the URL); unset = each message is written as an
 *                        .eml file under DATA_DIR/outbox/
 *   MAIL_FROM            the From of every message
 *   APP_ORIGIN           where the links lead (the web app's origin, no trailing slash)
 *   BANK_ROUTING_NUMBER  the bank's ABA routing number (GET /bank, the messages' footer)
 *   MAIL_ATTEMPTS, MAIL_BACKOFF_MS   how often and how patiently a message is tried while the server is unreachable
 */
const mailSettingsSchema = z.object({
  SMTP_URL: z
    .string()
    .url()
    .refine((url) => /^smtps?:\/\//.test(url), 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z
    .string()
    .refine((value) => parseMailbox(value) !== undefined, 'must be an e-mail address, alone or as "Name <address>"')
    .default(`${bankIdentity.name} <no-reply@summitbank.example>`),
  APP_ORIGIN: z
    .string()
    .url()
    .refine((url) => /^https?:\/\//.test(url), 'must be an http:// or https:// origin')
    .transform((url) => url.replace(/\/+$/, ''))
    .default('http://localhost:3000'),
  DATA_DIR: z.string().min(1).default('.data'),
  BANK_ROUTING_NUMBER: z.string().refine(isValidRoutingNumber, 'must be a 9-digit ABA routing number with a valid check digit').default(bankIdentity.routingNumber),
  /** Tries of one message (exponential backoff from MAIL_BACKOFF_MS, capped at five minutes between tries). */
  MAIL_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(20),
  MAIL_BACKOFF_MS: z.coerce.number().int().min(10).max(600_000).default(2000),
});

export type MailSettings = z.infer<typeof mailSettingsSchema>;

export function parseMailSettings(env: Record<string, string | undefined>): MailSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = mailSettingsSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new ConfigError(`Invalid mail configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

let cached: MailSettings | undefined;

/** The process's mail settings, read from process.env once. */
export function loadMailSettings(): MailSettings {
  cached ??= parseMailSettings(process.env);
  return cached;
}
