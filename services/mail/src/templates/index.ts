import type { MessageKind } from '../messageKinds';
import { emailChanged } from './emailChanged';
import { interestPaid } from './interestPaid';
import { layout, type MessageContent, type RenderedMessage, type TemplateContext } from './layout';
import { moneyReceived } from './moneyReceived';
import { newDevice } from './newDevice';
import { passwordChanged } from './passwordChanged';
import { passwordReset } from './passwordReset';
import { secondFactorChanged } from './secondFactorChanged';
import { standingOrderFailed } from './standingOrderFailed';
import { statementReady } from './statementReady';
import { transferReturned } from './transferReturned';
import { verifyEmail } from './verifyEmail';

export type { RenderedMessage, TemplateContext } from './layout';

/** The templates: one per kind of message, in this folder. */
const TEMPLATES: Record<MessageKind, (data: Record<string, string>, context: TemplateContext) => MessageContent> = {
  passwordReset,
  verifyEmail,
  emailChanged,
  passwordChanged,
  secondFactorChanged,
  newDevice,
  moneyReceived,
  transferReturned,
  standingOrderFailed,
  interestPaid,
  statementReady,
};

export function renderMessage(kind: MessageKind, data: Record<string, string>, context: TemplateContext): RenderedMessage {
  return layout(TEMPLATES[kind](data, context), context);
}
