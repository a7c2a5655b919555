import type { MessageContent, TemplateContext } from './layout';
import { greeting } from './layout';

/** Sign-up, a change of address and "Send again": the link that confirms the address. */
export function verifyEmail(data: Record<string, string>, context: TemplateContext): MessageContent {
  return {
    subject: `Confirm your e-mail address for ${context.bank.name}`,
    greeting: greeting(data.firstName),
    paragraphs: ['Please confirm that this e-mail address is yours, so that we can reach you about your accounts. The link works once.'],
    action: { label: 'Confirm your e-mail address', url: context.link ?? `${context.appOrigin}/account/home` },
  };
}
