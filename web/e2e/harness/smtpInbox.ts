import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';

/** One message the bank sent, as `mailparser` read it. */
export interface ReceivedMail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly messageId: string;
  readonly parsed: ParsedMail;
}

export interface SmtpInbox {
  /** smtp://127.0.0.1:<port>, for the server's SMTP_URL. */
  readonly url: string;
  readonly messages: readonly ReceivedMail[];
  /** Waits until a message to `to` whose subject matches arrives (polling what the server received). */
  waitFor(to: string, subject: RegExp, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function addressText(parsed: ParsedMail): string {
  const to = parsed.to;
  if (!to) return '';
  return (Array.isArray(to) ? to : [to]).map((address) => address.text).join(', ');
}

/**
 * A real SMTP server (the `smtp-server` package) in this process on a free port, keeping what it receives: the
 * bank's mail goes through nodemailer to it exactly as to a provider. No TLS and no authentication (a local relay).
 */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          messages.push({
            to: addressText(parsed),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            messageId: parsed.messageId ?? '',
            parsed,
          });
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.server.address();
      if (address && typeof address === 'object') resolve(address.port);
      else reject(new Error('The SMTP server has no port'));
    });
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, subject, timeoutMs = 30_000) {
      const match = () => messages.find((message) => message.to.toLowerCase().includes(to.toLowerCase()) && subject.test(message.subject));
      await expect
        .poll(() => match() !== undefined, { timeout: timeoutMs, interval: 200, message: `a message to ${to} with a subject like ${subject}` })
        .toBe(true);
      return match()!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
