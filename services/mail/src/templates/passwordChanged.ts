import type { MessageContent, TemplateContext } from './layout';
import { greeting } from './layout';

/** A password changed in Settings or reset with a link (always sent). */
export function passwordChanged(data: Record<string, string>, context: TemplateContext): MessageContent {
  return {
    subject: `Your ${context.bank.name} password was changed`,
    greeting: greeting(data.firstName),
    paragraphs: [
      `The password of your online banking was ${data.how === 'reset' ? 'reset with a link sent to this address' : 'changed'} on ${data.at ?? 'just now'}. Every other session was signed out.`,
      `If this was not you, reset your password at ${context.appOrigin}/forgot-password and call us on ${context.bank.phone}.`,
    ],
  };
}
