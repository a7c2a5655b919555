import { domainToASCII } from 'node:url';
import libmime from 'libmime';
import { encode as quotedPrintable, wrap as wrapQuotedPrintable } from 'libqp';

/** One message's parts, ready to be put together. */
export interface MessageParts {
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** `<kind.sourceId@host>` */
  readonly messageId: string;
}

/** A mailbox as MAIL_FROM or a recipient gives it: `Name <address>` or a bare address. */
export interface Mailbox {
  readonly name?: string;
  readonly address: string;
}

const ADDRESS = /^[^\s@<>"]+@[^\s@<>"]+$/;

/** `Summit Bank <no-reply@summitbank.example>`, `"Summit, Bank" <…>` or `no-reply@…`; undefined for anything else. */
export function parseMailbox(value: string): Mailbox | undefined {
  const trimmed = value.replace(/\s+/g, ' ').trim();
  if (ADDRESS.test(trimmed)) return { address: trimmed };
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(trimmed);
  if (!named || !ADDRESS.test(named[2]!.trim())) return undefined;
  const name = named[1]!.replace(/^"(.*)"$/, '$1').trim();
  return name ? { name, address: named[2]!.trim() } : { address: named[2]!.trim() };
}

/** The address with an internationalised domain in its ASCII (punycode) form, as a header and SMTP need it. */
export function asciiAddress(address: string): string {
  const at = address.lastIndexOf('@');
  const domain = address.slice(at + 1);
  return /^[\x20-\x7e]*$/.test(domain) ? address : `${address.slice(0, at)}@${domainToASCII(domain) || domain}`;
}

/** A display name as a header carries it: as it is, quoted when it holds specials, or RFC 2047 words. */
function displayName(name: string): string {
  if (!libmime.isPlainText(name)) return libmime.encodeWords(name, 'Q', 52);
  return /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]+$/.test(name) ? name : `"${name.replace(/(["\\])/g, '\\$1')}"`;
}

function mailboxHeader(value: string): string {
  const mailbox = parseMailbox(value);
  if (!mailbox) throw new Error(`Not an e-mail address: ${JSON.stringify(value)}`);
  const address = asciiAddress(mailbox.address);
  return mailbox.name ? `${displayName(mailbox.name)} <${address}>` : address;
}

/**
 * The parts' boundary. It begins with `=_`, which quoted-printable text can never hold (its `=` is always followed by
 * two hex digits or a line break), so no part can end early and the boundary needs no random bytes.
 */
const BOUNDARY = '=_summit-bank-alternative';

/** RFC 5322's date: `Tue, 01 Dec 2026 12:14:30 +0000`. */
function rfc5322Date(date: Date): string {
  return date.toUTCString().replace(/GMT$/, '+0000');
}

/** A header line, folded; any line break or run of white space in the value is one space (no header injection). */
function header(name: string, value: string): string {
  return libmime.foldLines(`${name}: ${value.replace(/\s+/g, ' ').trim()}`, 76);
}

function textPart(type: 'plain' | 'html', body: string): string[] {
  return [
    `Content-Type: text/${type}; charset=utf-8`,
    'Content-Transfer-Encoding: quoted-printable',
    '',
    wrapQuotedPrintable(quotedPrintable(body.replace(/\r?\n/g, '\r\n')), 76),
  ];
}

/**
 * One notice as an RFC 5322 message: a text and an HTML part (multipart/alternative, UTF-8, quoted-printable), the
 * headers folded at 76 characters, a subject or a display name outside ASCII as RFC 2047 words, line breaks or runs
 * of white space in a header's value as one space.
 *
 * Put together here rather than by nodemailer's composer: under transfer load that composer's stream pipeline per
 * message was 13 % of the bank's CPU for a message this plain (docs/benchmarks.md). nodemailer still sends it over
 * SMTP; libmime and libqp (nodemailer's own encoders, also used by mailparser) do the encoding.
 */
export function composeMessage(parts: MessageParts, options: { readonly date: Date; readonly newline: '\n' | '\r\n' }): Buffer {
  const lines = [
    header('Auto-Submitted', 'auto-generated'),
    header('From', mailboxHeader(parts.from)),
    header('To', mailboxHeader(parts.to)),
    header('Subject', libmime.isPlainText(parts.subject) ? parts.subject : libmime.encodeWords(parts.subject, 'Q', 52)),
    header('Message-ID', parts.messageId),
    header('Date', rfc5322Date(options.date)),
    'MIME-Version: 1.0',
    header('Content-Type', `multipart/alternative; boundary="${BOUNDARY}"`),
    '',
    `--${BOUNDARY}`,
    ...textPart('plain', parts.text),
    `--${BOUNDARY}`,
    ...textPart('html', parts.html),
    `--${BOUNDARY}--`,
    '',
  ];
  return Buffer.from(lines.join('\r\n').replace(/\r?\n/g, options.newline), 'utf8');
}
