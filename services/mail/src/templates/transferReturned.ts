import type { MessageContent, TemplateContext } from './layout';
import { greeting } from './layout';

/** An external transfer came back: the money is in the account again. */
export function transferReturned(data: Record<string, string>, context: TemplateContext): MessageContent {
  return {
    subject: `Your transfer of ${data.amount ?? 'money'} was returned`,
    optional: true,
    greeting: greeting(data.firstName),
    paragraphs: [
      `Your transfer of ${data.amount ?? 'money'} to another bank could not be completed and was returned. The money is back in your ${data.account ?? ''} account ending ${data.last4 ?? '????'}.`,
      ...(data.description ? [`Details: ${data.description}`] : []),
    ],
    action: { label: 'See your transactions', url: `${context.appOrigin}/account/transactions` },
  };
}
