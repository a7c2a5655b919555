import type { Decider } from '../decider';
import { assertNever } from '../decider';
import { refuse } from '../domainError';
import type { EventOf } from '../events/eventSchemas';
import { normalizeEmail } from '../streams';

/** A contact message, stream `contact-<contactId>`. */

export type ContactMessageState =
  | { readonly status: 'none' }
  | {
      readonly status: 'received' | 'deleted';
      readonly contactId: string;
      readonly name: string;
      readonly email: string;
      readonly phone: string;
      readonly subject: string;
      readonly message: string;
      readonly receivedAt: string;
    };

export const initialContactMessageState: ContactMessageState = { status: 'none' };

export type ContactEvent = EventOf<'ContactMessageReceived' | 'ContactMessageDeleted'>;

/** From contactInput (bots already filtered out by isBotSubmission). */
export interface ReceiveContactMessage {
  readonly type: 'ReceiveContactMessage';
  readonly contactId: string;
  readonly name: string;
  readonly email: string;
  readonly phone?: string | undefined;
  readonly subject?: string | undefined;
  readonly message: string;
  readonly now: string;
}

export interface DeleteContactMessage {
  readonly type: 'DeleteContactMessage';
  readonly adminId: string;
  readonly now: string;
}

export type ContactCommand = ReceiveContactMessage | DeleteContactMessage;

export function evolveContactMessage(state: ContactMessageState, event: ContactEvent): ContactMessageState {
  switch (event.type) {
    case 'ContactMessageReceived':
      return { status: 'received', ...event.data };
    case 'ContactMessageDeleted':
      return state.status === 'none' ? state : { ...state, status: 'deleted' };
    default:
      return assertNever(event);
  }
}

function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

export function decideContactMessage(command: ContactCommand, state: ContactMessageState): ContactEvent[] {
  switch (command.type) {
    case 'ReceiveContactMessage':
      if (state.status !== 'none') return [];
      if (!present(command.name) || !present(command.email) || !present(command.message)) refuse('all_fields_required');
      return [
        {
          type: 'ContactMessageReceived',
          data: {
            contactId: command.contactId,
            name: command.name.trim(),
            email: normalizeEmail(command.email),
            phone: command.phone?.trim() ?? '',
            subject: command.subject?.trim() ?? '',
            message: command.message.trim(),
            receivedAt: command.now,
          },
        },
      ];
    case 'DeleteContactMessage':
      if (state.status !== 'received') refuse('not_found', 'Contact message not found');
      return [{ type: 'ContactMessageDeleted', data: { contactId: state.contactId, adminId: command.adminId, occurredAt: command.now } }];
    default:
      return assertNever(command);
  }
}

export const contactMessageDecider: Decider<ContactCommand, ContactEvent, ContactMessageState> = {
  name: 'contact',
  stateVersion: 1,
  initialState: initialContactMessageState,
  evolve: evolveContactMessage,
  decide: decideContactMessage,
};
