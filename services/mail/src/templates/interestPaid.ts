import type { MessageContent, TemplateContext } from './layout';
import { greeting } from './layout';

/** The month's interest was paid (an AccountCredited carrying `interest`). */
export function interestPaid(data: Record<string, string>, context: TemplateContext): MessageContent {
  return {
    subject: `Interest paid: ${data.amount ?? ''}`,
    optional: true,
    greeting: greeting(data.firstName),
    paragraphs: [`We paid ${data.amount ?? ''} of interest${data.month ? ` for ${data.month}` : ''} into your ${data.account ?? ''} account ending ${data.last4 ?? '????'}.`],
    action: { label: 'See your interest', url: `${context.appOrigin}/account/interest` },
  };
}
