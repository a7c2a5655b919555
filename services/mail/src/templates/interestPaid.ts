import type { MessageContent, TemplateContext } from './layout';
import { greeting } from './layout';

/** The month's interest was paid (sent when the interest payment's event exists: see docs/email.md). */
export function interestPaid(data: Record<string, string>, context: TemplateContext): MessageContent {
  return {
    subject: `Interest paid: ${data.amount ?? ''}`,
    greeting: greeting(data.firstName),
    paragraphs: [`We paid ${data.amount ?? ''} of interest into your ${data.account ?? ''} account ending ${data.last4 ?? '????'}.`],
    action: { label: 'See your interest', url: `${context.appOrigin}/account/savings` },
  };
}
