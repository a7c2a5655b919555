import type { MessageContent, TemplateContext } from './layout';
import { greeting } from './layout';

/** A monthly statement is ready (sent when the monthly statement's event exists: see docs/email.md). */
export function statementReady(data: Record<string, string>, context: TemplateContext): MessageContent {
  return {
    subject: `Your ${data.month ?? 'monthly'} statement is ready`,
    optional: true,
    greeting: greeting(data.firstName),
    paragraphs: [`Your statement for ${data.month ?? 'last month'} is ready to read and download.`],
    action: { label: 'Open your statements', url: `${context.appOrigin}/account/statements` },
  };
}
