import type { MessageContent, TemplateContext } from './layout';
import { greeting } from './layout';

/** A month's statement is ready (the close of the month's last business date: statementNotices.ts). */
export function statementReady(data: Record<string, string>, context: TemplateContext): MessageContent {
  return {
    subject: `Your ${data.month ?? 'monthly'} statement is ready`,
    optional: true,
    greeting: greeting(data.firstName),
    paragraphs: [`Your statement for ${data.month ?? 'last month'} is ready to read and download.`],
    action: { label: 'Open your statements', url: `${context.appOrigin}/account/statements` },
  };
}
