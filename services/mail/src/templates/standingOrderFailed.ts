import type { MessageContent, TemplateContext } from './layout';
import { greeting } from './layout';

/** A standing order's payment was refused, or three refusals in a row suspended the order. */
export function standingOrderFailed(data: Record<string, string>, context: TemplateContext): MessageContent {
  const suspended = data.suspended === 'true';
  return {
    subject: suspended ? `Your standing order to ${data.recipient ?? 'a recipient'} is suspended` : `A standing order payment to ${data.recipient ?? 'a recipient'} failed`,
    optional: true,
    greeting: greeting(data.firstName),
    paragraphs: suspended
      ? [`Your standing order of ${data.amount ?? ''} to ${data.recipient ?? 'its recipient'} failed three times in a row and is suspended: ${data.reason ?? ''}.`, 'Resume it in Standing orders once the account can pay it.']
      : [`The payment of ${data.amount ?? ''} to ${data.recipient ?? 'its recipient'} due on ${data.date ?? 'its date'} was not made: ${data.reason ?? ''}. It will not be tried again.`],
    action: { label: 'See your standing orders', url: `${context.appOrigin}/account/standing-orders` },
  };
}
