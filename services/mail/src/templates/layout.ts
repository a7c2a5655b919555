import type { BankDetails } from '../bankDetails';

/** What a template says: the subject, its paragraphs (plain text) and at most one link to act on. */
export interface MessageContent {
  readonly subject: string;
  readonly greeting: string;
  readonly paragraphs: readonly string[];
  readonly action?: { readonly label: string; readonly url: string };
  /** A notice the customer may turn off (Settings → Notifications): the footer says where. */
  readonly optional?: boolean;
}

export interface RenderedMessage {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** What every template may use besides the message's own data. */
export interface TemplateContext {
  readonly bank: BankDetails;
  readonly appOrigin: string;
  /** The one-time link of a message that carries one (password reset, e-mail confirmation). */
  readonly link?: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function footerLines(content: MessageContent, context: TemplateContext): string[] {
  const { bank } = context;
  return [
    ...(content.optional ? [`You receive this notice because it is on in Settings, Notifications: ${context.appOrigin}/account/notifications`] : []),
    `${bank.name}, ${bank.address}`,
    `Questions? Call ${bank.phone} or write to ${bank.email}. We will never ask for your password, payment pin or codes.`,
  ];
}

/** The text and HTML parts of a message, with the bank's name and address below. */
export function layout(content: MessageContent, context: TemplateContext): RenderedMessage {
  const footer = footerLines(content, context);
  const text = [
    content.greeting,
    '',
    ...content.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    '--',
    ...footer,
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#1a1a1a;max-width:560px;margin:0 auto;padding:16px">',
    `<p style="font-size:18px;font-weight:bold;color:#0b3d5c">${escapeHtml(context.bank.name)}</p>`,
    `<p>${escapeHtml(content.greeting)}</p>`,
    ...content.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    ...(content.action
      ? [
          `<p><a href="${escapeHtml(content.action.url)}" style="display:inline-block;background:#0b3d5c;color:#ffffff;padding:10px 16px;border-radius:4px;text-decoration:none">${escapeHtml(content.action.label)}</a></p>`,
          `<p style="font-size:12px;color:#555">Or open this address: ${escapeHtml(content.action.url)}</p>`,
        ]
      : []),
    `<hr><p style="font-size:12px;color:#555">${footer.map(escapeHtml).join('<br>')}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: content.subject, text, html };
}

export function greeting(firstName: string | undefined): string {
  return firstName ? `Dear ${firstName},` : 'Hello,';
}
