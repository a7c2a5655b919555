import type { MessageContent, TemplateContext } from './layout';
import { greeting } from './layout';

const WHAT: Record<string, string> = {
  on: 'Two-step sign-in (an authenticator app) was turned on',
  off: 'Two-step sign-in was turned off',
  reset: 'Our staff removed your two-step sign-in at your request',
};

/** The second factor turned on or off (always sent). */
export function secondFactorChanged(data: Record<string, string>, context: TemplateContext): MessageContent {
  return {
    subject: `Two-step sign-in ${data.state === 'on' ? 'turned on' : 'turned off'} for your ${context.bank.name} account`,
    greeting: greeting(data.firstName),
    paragraphs: [`${WHAT[data.state ?? 'off'] ?? WHAT.off} on ${data.at ?? 'just now'}.`, `If this was not you, call us at once on ${context.bank.phone}.`],
  };
}
