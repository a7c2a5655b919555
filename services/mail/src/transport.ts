import { renameSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { MailSettings } from './mailSettings';
import { asciiAddress, composeMessage, parseMailbox, type MessageParts } from './mimeMessage';

/** One message ready to go: its parts rendered, its Message-ID fixed, and its outbox id. */
export interface Envelope extends MessageParts {
  readonly id: string;
}

export interface MailTransport {
  /** Where the messages go, for the start-up log (never a password). */
  readonly description: string;
  send(envelope: Envelope): Promise<void>;
  close(): void;
}

/** A failure that trying again will not heal: the server answered 5xx (an unknown mailbox, a refused sender…). */
export function isPermanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** The host part of MAIL_FROM's address: the Message-ID's right side. */
export function messageHost(from: string): string {
  const address = parseMailbox(from)?.address ?? from;
  return address.split('@')[1]?.trim() || 'localhost';
}

/** The envelope's sender and recipient (SMTP's MAIL FROM and RCPT TO): the bare addresses of From and To. */
function smtpEnvelope(envelope: Envelope): { from: string; to: string[] } {
  const address = (value: string) => asciiAddress(parseMailbox(value)?.address ?? value);
  return { from: address(envelope.from), to: [address(envelope.to)] };
}

function smtpDescription(url: string): string {
  const parsed = new URL(url);
  return `SMTP ${parsed.protocol}//${parsed.hostname}:${parsed.port || (parsed.protocol === 'smtps:' ? '465' : '587')}`;
}

/** Over SMTP to SMTP_URL. */
export function smtpTransport(url: string, options: { readonly timeoutMs?: number } = {}): MailTransport {
  const timeout = options.timeoutMs ?? 15_000;
  const parsed = new URL(url);
  const transporter = nodemailer.createTransport({
    host: parsed.hostname,
    port: Number(parsed.port || (parsed.protocol === 'smtps:' ? 465 : 587)),
    secure: parsed.protocol === 'smtps:',
    ...(parsed.username ? { auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } } : {}),
    // A server without TLS (a local relay, the tests' server) is used as it is; one that offers STARTTLS gets it.
    ignoreTLS: parsed.searchParams.get('ignoreTLS') === 'true',
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout * 2,
  });
  return {
    description: smtpDescription(url),
    async send(envelope) {
      // The message as composeMessage puts it together; nodemailer only carries it (its `raw` option).
      await transporter.sendMail({ envelope: smtpEnvelope(envelope), raw: composeMessage(envelope, { date: new Date(), newline: '\r\n' }) });
    },
    close() {
      transporter.close();
    },
  };
}

/**
 * Without SMTP_URL: each message as an .eml file in `folder` (written whole, then renamed into place). The folder is
 * made once, and again only when a write finds it gone.
 *
 * The file is written and renamed with the synchronous calls, on purpose. A message is 2–3 KB going to the page
 * cache of a local folder: open, write, close and rename take about 35 µs of this thread. The promise calls ran the
 * same four system calls on libuv's thread pool, each a hand-over to a pool thread and back: 100–165 µs of CPU a
 * message here, and the pool threads' CPU was a sixth of the bank's during a transfer bench (docs/benchmarks.md,
 * "The .eml outbox written without the thread pool"). A batch of the sender (32 messages at most) holds the event
 * loop about a millisecond, as a projector batch does.
 */
export function emlFileTransport(folder: string): MailTransport {
  let folderMade: Promise<unknown> | undefined;
  const write = async (file: string, message: Buffer) => {
    await (folderMade ??= mkdir(folder, { recursive: true }).catch((error: unknown) => {
      folderMade = undefined;
      throw error;
    }));
    writeFileSync(`${file}.tmp`, message, { mode: 0o600 });
    renameSync(`${file}.tmp`, file);
  };
  return {
    description: `.eml files in ${folder}`,
    async send(envelope) {
      const message = composeMessage(envelope, { date: new Date(), newline: '\n' });
      const file = path.join(folder, `${envelope.id.replace(/[^A-Za-z0-9._-]/g, '_')}.eml`);
      try {
        await write(file, message);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        folderMade = undefined;
        await write(file, message);
      }
    },
    close() {},
  };
}

export function outboxFolder(settings: Pick<MailSettings, 'DATA_DIR'>): string {
  return path.resolve(settings.DATA_DIR, 'outbox');
}

export function transportFromSettings(settings: Pick<MailSettings, 'SMTP_URL' | 'DATA_DIR'>): MailTransport {
  return settings.SMTP_URL ? smtpTransport(settings.SMTP_URL) : emlFileTransport(outboxFolder(settings));
}
