import type { MessageContent, TemplateContext } from './layout';
import { greeting } from './layout';

/** To the old address when the profile's e-mail changes. */
export function emailChanged(data: Record<string, string>, context: TemplateContext): MessageContent {
  return {
    subject: `Your ${context.bank.name} e-mail address was changed`,
    greeting: greeting(data.firstName),
    paragraphs: [
      `The e-mail address of your online banking was changed to ${data.newEmail ?? 'a new address'}. Messages now go there.`,
      `If you did not make this change, call us at once on ${context.bank.phone}.`,
    ],
  };
}
