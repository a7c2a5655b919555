import type { MessageContent, TemplateContext } from './layout';
import { greeting } from './layout';

/** The link of POST /auth/forgot-password: valid once, for 30 minutes. */
export function passwordReset(data: Record<string, string>, context: TemplateContext): MessageContent {
  return {
    subject: `Reset your ${context.bank.name} password`,
    greeting: greeting(data.firstName),
    paragraphs: [
      'We received a request to reset the password of your online banking. The link below works once, for 30 minutes.',
      'If you did not ask for it, ignore this message: your password stays as it is.',
    ],
    action: { label: 'Reset your password', url: context.link ?? `${context.appOrigin}/forgot-password` },
  };
}
