import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server in the test's process (smtp-server): it receives what the bank sends, mailparser reads it.
 * It can be stopped and started again on the same port (the bank's SMTP down for a while), and refuses the
 * recipients in `rejected` with 550 (a permanent failure).
 */
export interface SmtpTestServer {
  readonly port: number;
  readonly url: string;
  readonly received: ParsedMail[];
  /** Each received message's envelope (MAIL FROM and RCPT TO), in the same order as `received`. */
  readonly envelopes: { readonly from: string; readonly to: readonly string[] }[];
  readonly rejected: Set<string>;
  stop(): Promise<void>;
  start(): Promise<void>;
}

function createServer(received: ParsedMail[], envelopes: SmtpTestServer['envelopes'], rejected: Set<string>): SMTPServer {
  return new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (rejected.has(address.address.toLowerCase())) {
        callback(Object.assign(new Error('5.1.1 No such mailbox'), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          const { mailFrom, rcptTo } = session.envelope;
          envelopes.push({ from: mailFrom ? mailFrom.address : '', to: rcptTo.map((recipient) => recipient.address) });
          callback();
        })
        .catch(callback);
    },
  });
}

export async function startSmtpTestServer(): Promise<SmtpTestServer> {
  const received: ParsedMail[] = [];
  const envelopes: SmtpTestServer['envelopes'] = [];
  const rejected = new Set<string>();
  let server = createServer(received, envelopes, rejected);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  return {
    port,
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    received,
    envelopes,
    rejected,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    async start() {
      server = createServer(received, envelopes, rejected);
      await listen(port);
    },
  };
}
