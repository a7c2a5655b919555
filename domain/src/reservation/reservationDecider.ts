import type { Decider } from '../decider';
import { assertNever } from '../decider';
import { refuse } from '../domainError';
import type { EventOf } from '../events/eventSchemas';
import { isAccountNumber } from '../primitives';
import { normalizeEmail } from '../streams';

/**
 * Uniqueness by reservation streams: `email-<lowercased email>` and `accountnumber-<10 digits>`.
 * The service appends with expected revision 'no_stream' for a first reservation (a concurrent winner makes the
 * append fail: re-read and decide again, which then refuses), or with the read revision after a release.
 * Reserving for the same user again is a no-op; reserving a value held by another user is refused (409).
 */
export interface ReservationState {
  /** The user holding the value, or null (never reserved, or released). */
  readonly heldBy: string | null;
}

export const initialReservationState: ReservationState = { heldBy: null };

// e-mail ---------------------------------------------------------------------------------------------------------

export type EmailReservationEvent = EventOf<'EmailReserved' | 'EmailReleased'>;
export type EmailReservationCommand =
  | { readonly type: 'ReserveEmail'; readonly email: string; readonly userId: string }
  | { readonly type: 'ReleaseEmail'; readonly email: string; readonly userId: string };

export function evolveEmailReservation(_state: ReservationState, event: EmailReservationEvent): ReservationState {
  switch (event.type) {
    case 'EmailReserved':
      return { heldBy: event.data.userId };
    case 'EmailReleased':
      return { heldBy: null };
    default:
      return assertNever(event);
  }
}

export function decideEmailReservation(command: EmailReservationCommand, state: ReservationState): EmailReservationEvent[] {
  const email = normalizeEmail(command.email);
  switch (command.type) {
    case 'ReserveEmail':
      if (state.heldBy === command.userId) return [];
      if (state.heldBy !== null) refuse('email_taken');
      return [{ type: 'EmailReserved', data: { email, userId: command.userId } }];
    case 'ReleaseEmail':
      if (state.heldBy !== command.userId) return [];
      return [{ type: 'EmailReleased', data: { email, userId: command.userId } }];
    default:
      return assertNever(command);
  }
}

export const emailReservationDecider: Decider<EmailReservationCommand, EmailReservationEvent, ReservationState> = {
  name: 'email-reservation',
  stateVersion: 1,
  initialState: initialReservationState,
  evolve: evolveEmailReservation,
  decide: decideEmailReservation,
};

// account number -------------------------------------------------------------------------------------------------

export type AccountNumberReservationEvent = EventOf<'AccountNumberReserved' | 'AccountNumberReleased'>;
export type AccountNumberReservationCommand =
  | { readonly type: 'ReserveAccountNumber'; readonly accountNumber: string; readonly userId: string }
  | { readonly type: 'ReleaseAccountNumber'; readonly accountNumber: string; readonly userId: string };

export function evolveAccountNumberReservation(_state: ReservationState, event: AccountNumberReservationEvent): ReservationState {
  switch (event.type) {
    case 'AccountNumberReserved':
      return { heldBy: event.data.userId };
    case 'AccountNumberReleased':
      return { heldBy: null };
    default:
      return assertNever(event);
  }
}

export function decideAccountNumberReservation(command: AccountNumberReservationCommand, state: ReservationState): AccountNumberReservationEvent[] {
  if (!isAccountNumber(command.accountNumber)) refuse('invalid_account_number');
  const data = { accountNumber: command.accountNumber, userId: command.userId };
  switch (command.type) {
    case 'ReserveAccountNumber':
      if (state.heldBy === command.userId) return [];
      if (state.heldBy !== null) refuse('account_number_taken');
      return [{ type: 'AccountNumberReserved', data }];
    case 'ReleaseAccountNumber':
      if (state.heldBy !== command.userId) return [];
      return [{ type: 'AccountNumberReleased', data }];
    default:
      return assertNever(command);
  }
}

export const accountNumberReservationDecider: Decider<AccountNumberReservationCommand, AccountNumberReservationEvent, ReservationState> = {
  name: 'accountnumber-reservation',
  stateVersion: 1,
  initialState: initialReservationState,
  evolve: evolveAccountNumberReservation,
  decide: decideAccountNumberReservation,
};
