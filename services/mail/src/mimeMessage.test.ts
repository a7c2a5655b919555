import { simpleParser, type AddressObject } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { parseMailSettings } from './mailSettings';
import { composeMessage, parseMailbox, type MessageParts } from './mimeMessage';

const date = new Date('2026-12-01T12:14:30.000Z');

const parts: MessageParts = {
  from: 'Summit Bank <no-reply@summitbank.example>',
  to: 'zoe@example.com',
  subject: 'You received €1,250.00 from Zoë Núñez',
  text: [
    'Dear Zoë,',
    '',
    'A line with = signs, 100% and a tab\there, and a line long enough to be wrapped by the quoted-printable encoding at 76.',
    '.a line that starts with a dot',
    'From the start of a line, as mbox would mangle it',
    'trailing spaces   ',
    '€ and ✓ and 日本',
  ].join('\n'),
  html: '<!doctype html><html><body style="font-family:Arial"><p>Dear Zoë,</p><p><a href="http://localhost:3000/account/transactions?x=1&amp;y=2">See</a></p></body></html>',
  messageId: '<moneyReceived.b326f86a-8c3e-54e7-832e-128d2ddf69f0@summitbank.example>',
};

const addresses = (value: AddressObject | AddressObject[] | undefined) => (Array.isArray(value) ? value : value ? [value] : []).flatMap((a) => a.value);

describe('a notice put together as a MIME message', () => {
  it('reads back, through mailparser, with every part as it was given', async () => {
    const mail = await simpleParser(composeMessage(parts, { date, newline: '\r\n' }));
    expect(mail.subject).toBe(parts.subject);
    expect(addresses(mail.from)).toEqual([{ name: 'Summit Bank', address: 'no-reply@summitbank.example' }]);
    expect(addresses(mail.to)).toEqual([{ name: '', address: 'zoe@example.com' }]);
    expect(mail.messageId).toBe(parts.messageId);
    expect(mail.date?.toISOString()).toBe(date.toISOString());
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mail.headers.get('mime-version')).toBe('1.0');
    expect(mail.text).toBe(parts.text);
    expect(mail.html).toBe(parts.html);
    expect(mail.attachments).toEqual([]);
  });

  it('keeps every line within 78 characters, and uses one kind of line break throughout', () => {
    for (const newline of ['\r\n', '\n'] as const) {
      const raw = composeMessage({ ...parts, text: `${'word '.repeat(60)}\n${'x'.repeat(300)}` }, { date, newline }).toString('utf8');
      const lines = raw.split(newline);
      expect(lines.filter((line) => line.length > 78)).toEqual([]);
      if (newline === '\n') expect(raw).not.toContain('\r');
      else expect(raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
      // 7-bit: every character outside printable ASCII, tab and the line breaks is encoded.
      expect([...raw].filter((c) => !(c === '\t' || c === '\r' || c === '\n' || (c >= ' ' && c <= '~')))).toEqual([]);
    }
  });

  it('cannot be given another header through a value: a line break in a subject or a name is a space', async () => {
    const raw = composeMessage(
      { ...parts, from: 'Summit\r\nBcc: thief@example.net <no-reply@summitbank.example>', subject: 'Payment to Bob\r\nBcc: thief@example.net\r\n\r\nbody' },
      { date, newline: '\r\n' },
    );
    const mail = await simpleParser(raw);
    expect(mail.bcc).toBeUndefined();
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.subject).toBe('Payment to Bob Bcc: thief@example.net body');
    expect(addresses(mail.from)).toEqual([{ name: 'Summit Bcc: thief@example.net', address: 'no-reply@summitbank.example' }]);
  });

  it('writes a display name with specials quoted, one outside ASCII as encoded words, and a domain outside ASCII in punycode', async () => {
    const raw = composeMessage({ ...parts, from: 'Summit Bank, Denver <bank@summitbank.example>', to: 'Zoë <zoe@bücher.example>' }, { date, newline: '\n' });
    expect(raw.toString('utf8')).toContain('\nTo: =?UTF-8?Q?Zo=C3=AB?= <zoe@xn--bcher-kva.example>\n');
    const mail = await simpleParser(raw);
    expect(addresses(mail.from)).toEqual([{ name: 'Summit Bank, Denver', address: 'bank@summitbank.example' }]);
    expect(addresses(mail.to)).toEqual([{ name: 'Zoë', address: 'zoe@bücher.example' }]); // mailparser shows it in Unicode
  });

  it('refuses an address it cannot read rather than send a message without one', () => {
    expect(() => composeMessage({ ...parts, to: 'not an address' }, { date, newline: '\n' })).toThrow('Not an e-mail address');
  });
});

describe('MAIL_FROM', () => {
  it('is read as a name and an address, or a bare address', () => {
    expect(parseMailbox('Summit Bank <no-reply@summitbank.example>')).toEqual({ name: 'Summit Bank', address: 'no-reply@summitbank.example' });
    expect(parseMailbox('"Summit, Bank" <no-reply@summitbank.example>')).toEqual({ name: 'Summit, Bank', address: 'no-reply@summitbank.example' });
    expect(parseMailbox(' no-reply@summitbank.example ')).toEqual({ address: 'no-reply@summitbank.example' });
    expect(parseMailbox('<no-reply@summitbank.example>')).toEqual({ address: 'no-reply@summitbank.example' });
    expect(parseMailbox('Summit Bank')).toBeUndefined();
    expect(parseMailbox('Summit <no reply@bank>')).toBeUndefined();
  });

  it('that is not an address stops the start with a message naming it', () => {
    expect(() => parseMailSettings({ MAIL_FROM: 'Summit Bank' })).toThrow(/MAIL_FROM.*must be an e-mail address/s);
    expect(parseMailSettings({ MAIL_FROM: 'bank@summitbank.example' }).MAIL_FROM).toBe('bank@summitbank.example');
  });
});
