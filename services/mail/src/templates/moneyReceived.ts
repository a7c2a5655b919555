import type { MessageContent, TemplateContext } from './layout';
import { greeting } from './layout';

/** Money from another customer of the bank arrived. */
export function moneyReceived(data: Record<string, string>, context: TemplateContext): MessageContent {
  return {
    subject: `You received ${data.amount ?? 'money'}`,
    optional: true,
    greeting: greeting(data.firstName),
    paragraphs: [
      `${data.from ?? 'Another customer'} sent you ${data.amount ?? 'money'}. It is in your ${data.account ?? ''} account ending ${data.last4 ?? '????'}.`,
      ...(data.description ? [`Description: ${data.description}`] : []),
    ],
    action: { label: 'See your transactions', url: `${context.appOrigin}/account/transactions` },
  };
}
