import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpTestServer, type SmtpTestServer } from './testing/smtpTestServer';
import { smtpTransport, type Envelope } from './transport';

/** Lines SMTP treats specially (a lone dot ends the data; a leading dot is doubled), and text outside ASCII. */
const text = ['Dear Zoë,', '.', '.a line that starts with a dot', '..two dots', 'From the start of a line', `${'long '.repeat(40)}end`, '€ ✓'].join('\n');

const envelope: Envelope = {
  id: 'moneyReceived.smtp-1',
  from: 'Summit Bank <no-reply@summitbank.example>',
  to: 'Zoë Núñez <zoe@example.com>',
  subject: 'You received €12.50',
  text,
  html: '<p>Dear Zoë,</p>\n<p>.</p>',
  messageId: '<moneyReceived.smtp-1@summitbank.example>',
};

describe('the SMTP transport', () => {
  let smtp: SmtpTestServer;

  beforeAll(async () => {
    smtp = await startSmtpTestServer();
  });

  afterAll(async () => {
    await smtp.stop();
  });

  it('hands the server the composed message whole, with the bare addresses as its envelope', async () => {
    const transport = smtpTransport(smtp.url);
    try {
      await transport.send(envelope);
    } finally {
      transport.close();
    }
    expect(smtp.envelopes).toEqual([{ from: 'no-reply@summitbank.example', to: ['zoe@example.com'] }]);
    const [mail] = smtp.received;
    expect(mail?.text).toBe(text);
    expect(mail?.html).toBe(envelope.html);
    expect(mail?.subject).toBe(envelope.subject);
    expect(mail?.messageId).toBe(envelope.messageId);
    expect(mail?.headers.get('auto-submitted')).toBe('auto-generated');
  });
});
