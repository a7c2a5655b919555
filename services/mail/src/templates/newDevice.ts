import type { MessageContent, TemplateContext } from './layout';
import { greeting } from './layout';

/** A sign-in from a device this user had not signed in from before (always sent). */
export function newDevice(data: Record<string, string>, context: TemplateContext): MessageContent {
  return {
    subject: `New sign-in to your ${context.bank.name} account`,
    greeting: greeting(data.firstName),
    paragraphs: [
      `Someone signed in to your online banking from ${data.device ?? 'a new device'} (address ${data.address ?? 'unknown'}) on ${data.at ?? 'just now'}.`,
      `If this was you, there is nothing to do. If not, change your password and sign that session out in Security (${context.appOrigin}/account/security), or call us on ${context.bank.phone}.`,
    ],
  };
}
