import type { Decider } from '../decider';
import { assertNever, foldEvents } from '../decider';
import { refuse } from '../domainError';
import type { ProfileFieldName, ProfileFields } from '../events/customerEvents';
import { profileFieldNames } from '../events/customerEvents';
import type { BankEvent, BankEventType, EventOf, EventTypeOfStream } from '../events/eventSchemas';
import { eventTypesOfStream } from '../events/eventSchemas';
import { isAccountNumber, MAX_FILE_BYTES, MINIMUM_AGE_YEARS } from '../primitives';
import { normalizeEmail } from '../streams';
import { ageInYears } from '../calendar';
import { RECOVERY_CODE_COUNT } from '../events/customerEvents';
import type {
  AdminEditCustomer,
  ChangeProfile,
  CustomerCommand,
  EditCustomerProfile,
  EnrolSecondFactor,
  FileUpload,
  RegisterCustomer,
  RemoveSecondFactor,
  ResetSecondFactor,
  SubmitVerification,
  UseRecoveryCode,
} from './customerCommands';
import type { Customer, CustomerState } from './customerState';
import { initialCustomerState, recoveryCodesLeft } from './customerState';

export type CustomerEvent = Extract<BankEvent, { type: CustomerEventType }>;
export type CustomerEventType = EventTypeOfStream<'customer'>;

const customerEventTypes: ReadonlySet<BankEventType> = new Set(eventTypesOfStream('customer'));
export function isCustomerEvent(event: BankEvent): event is CustomerEvent {
  return customerEventTypes.has(event.type);
}

// ---------------------------------------------------------------------------------------------------------------
// evolve

export function evolveCustomer(state: CustomerState, event: CustomerEvent): CustomerState {
  if (event.type === 'CustomerRegistered') {
    const { data } = event;
    return {
      status: 'active',
      userId: data.userId,
      firstName: data.firstName,
      lastName: data.lastName,
      email: data.email,
      phone: data.phone,
      address: data.address,
      state: data.state,
      passwordHash: data.passwordHash,
      accountNumber: data.accountNumber,
      role: data.role,
      registeredAt: data.registeredAt,
      verificationStatus: 'awaiting',
      verification: null,
      profilePicture: null,
      pinHash: null,
      isBlocked: false,
      isDisabled: false,
      closedAt: null,
      cardRequests: [],
      secondFactor: null,
    };
  }
  if (state.status === 'unregistered') return state;
  switch (event.type) {
    case 'ProfileChanged':
      return { ...state, ...event.data.after };
    case 'PasswordChanged':
      return { ...state, passwordHash: event.data.passwordHash };
    case 'VerificationSubmitted': {
      const { documentType, passport, documentFront, documentBack, dateOfBirth, submittedAt } = event.data;
      return {
        ...state,
        verificationStatus: 'pending',
        verification: { documentType, passport, documentFront, documentBack, dateOfBirth, submittedAt },
      };
    }
    case 'VerificationStatusSet':
      return { ...state, verificationStatus: event.data.status };
    case 'ProfilePictureSet':
      return { ...state, profilePicture: { fileId: event.data.fileId, sha256: event.data.sha256 } };
    case 'PaymentPinSet':
      return { ...state, pinHash: event.data.pinHash };
    case 'CustomerBlocked':
      return { ...state, isBlocked: true };
    case 'CustomerUnblocked':
      return { ...state, isBlocked: false };
    case 'CustomerDisabled':
      return { ...state, isDisabled: true };
    case 'CustomerEnabled':
      return { ...state, isDisabled: false };
    case 'AccountNumberChanged':
      return { ...state, accountNumber: event.data.next };
    case 'CustomerClosed':
      return { ...state, status: 'closed', closedAt: event.data.closedAt };
    case 'CardRequested':
      return { ...state, cardRequests: [...state.cardRequests, { ...event.data }] };
    case 'SecondFactorEnrolled':
      return {
        ...state,
        secondFactor: { method: 'totp', secret: event.data.secret, recoveryCodes: event.data.recoveryCodes, usedRecoveryCodes: [], enrolledAt: event.data.occurredAt },
      };
    case 'SecondFactorRemoved':
    case 'SecondFactorReset':
      return { ...state, secondFactor: null };
    case 'RecoveryCodeUsed':
      return state.secondFactor ? { ...state, secondFactor: { ...state.secondFactor, usedRecoveryCodes: [...state.secondFactor.usedRecoveryCodes, event.data.index] } } : state;
    default:
      return assertNever(event);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// decide

/** The registered, not closed customer, or a refusal ('User not found' 404 / 'Account is closed' 422). */
export function requireActiveCustomer(state: CustomerState): Customer {
  if (state.status === 'unregistered') refuse('not_found', 'User not found');
  if (state.status === 'closed') refuse('closed');
  return state;
}

function event<K extends CustomerEventType>(type: K, data: EventOf<K>['data']): EventOf<K> {
  return { type, data } as EventOf<K>;
}

function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

function profileChange(customer: Customer, next: Partial<ProfileFields>, changedBy: string, now: string): CustomerEvent[] {
  const before: Partial<Record<ProfileFieldName, string>> = {};
  const after: Partial<Record<ProfileFieldName, string>> = {};
  for (const field of profileFieldNames) {
    const value = next[field];
    if (value !== undefined && value !== customer[field]) {
      before[field] = customer[field];
      after[field] = value;
    }
  }
  if (Object.keys(after).length === 0) return [];
  return [event('ProfileChanged', { before, after, changedBy, occurredAt: now })];
}

function trimmedProfile(command: ChangeProfile | EditCustomerProfile | AdminEditCustomer): Partial<ProfileFields> {
  const fields: Partial<Record<ProfileFieldName, string>> = {};
  for (const field of profileFieldNames) {
    const value = command[field];
    if (value !== undefined) fields[field] = field === 'email' ? normalizeEmail(value) : value.trim();
  }
  return fields;
}

function register(command: RegisterCustomer, state: CustomerState): CustomerEvent[] {
  if (state.status !== 'unregistered') refuse('already_exists', 'User already registered');
  const required = [command.firstName, command.lastName, command.email, command.passwordHash];
  if (!required.every(present)) refuse('all_fields_required');
  if (!isAccountNumber(command.accountNumber)) refuse('invalid_account_number');
  return [
    event('CustomerRegistered', {
      userId: command.userId,
      firstName: command.firstName.trim(),
      lastName: command.lastName.trim(),
      email: normalizeEmail(command.email),
      phone: command.phone.trim(),
      address: command.address.trim(),
      state: command.state.trim(),
      passwordHash: command.passwordHash,
      accountNumber: command.accountNumber,
      role: command.role,
      registeredAt: command.now,
    }),
  ];
}

function changeProfile(command: ChangeProfile, customer: Customer): CustomerEvent[] {
  const next = trimmedProfile(command);
  if ((next.firstName !== undefined && next.firstName !== customer.firstName) || (next.lastName !== undefined && next.lastName !== customer.lastName)) {
    refuse('names_read_only');
  }
  if (![next.email, next.phone, next.address, next.state].every(present)) refuse('all_fields_required');
  return profileChange(customer, next, customer.userId, command.now);
}

function editProfile(command: EditCustomerProfile | AdminEditCustomer, customer: Customer): CustomerEvent[] {
  const next = trimmedProfile(command);
  if (!profileFieldNames.every((field) => present(next[field]))) refuse('all_fields_required');
  return profileChange(customer, next, command.adminId, command.now);
}

function assertFileSize(file: FileUpload | undefined): void {
  if (file !== undefined && file.sizeBytes > MAX_FILE_BYTES) refuse('file_too_large');
}

function submitVerification(command: SubmitVerification, customer: Customer): CustomerEvent[] {
  const { passport, documentFront, documentBack, dateOfBirth, documentType } = command;
  if (!passport || !documentFront || !present(dateOfBirth) || !documentType) refuse('all_fields_required');
  assertFileSize(passport);
  assertFileSize(documentFront);
  assertFileSize(documentBack);
  const age = ageInYears(dateOfBirth, command.now);
  if (age === undefined) refuse('invalid_date_of_birth');
  if (age < MINIMUM_AGE_YEARS) refuse('underage');
  const ref = (file: FileUpload) => ({ fileId: file.fileId, sha256: file.sha256 });
  return [
    event('VerificationSubmitted', {
      documentType,
      passport: ref(passport),
      documentFront: ref(documentFront),
      documentBack: ref(documentBack ?? documentFront),
      dateOfBirth,
      previousStatus: customer.verificationStatus,
      submittedAt: command.now,
    }),
  ];
}

function adminEdit(command: AdminEditCustomer, customer: Customer): CustomerEvent[] {
  const { adminId, now } = command;
  const steps: CustomerCommand[] = [{ ...command, type: 'EditCustomerProfile' }];
  if (command.verificationStatus !== undefined) steps.push({ type: 'SetVerificationStatus', adminId, status: command.verificationStatus, now });
  if (command.isBlocked !== undefined) steps.push({ type: command.isBlocked ? 'BlockCustomer' : 'UnblockCustomer', adminId, now });
  if (command.isDisabled !== undefined) steps.push({ type: command.isDisabled ? 'DisableCustomer' : 'EnableCustomer', adminId, now });
  if (command.pinHash !== undefined) steps.push({ type: 'SetPaymentPin', adminId, pinHash: command.pinHash, now });
  const events: CustomerEvent[] = [];
  let current: CustomerState = customer;
  for (const step of steps) {
    const produced = decideCustomer(step, current);
    current = foldEvents(evolveCustomer, current, produced);
    events.push(...produced);
  }
  return events;
}

function enrolSecondFactor(command: EnrolSecondFactor, customer: Customer): CustomerEvent[] {
  if (customer.secondFactor) refuse('second_factor_enabled');
  if (!command.codeMatches) refuse('invalid_code');
  if (command.recoveryCodes.length !== RECOVERY_CODE_COUNT) refuse('all_fields_required');
  return [event('SecondFactorEnrolled', { method: 'totp', secret: command.secret, recoveryCodes: [...command.recoveryCodes], occurredAt: command.now })];
}

function removeSecondFactor(command: RemoveSecondFactor, customer: Customer): CustomerEvent[] {
  // Staff keep theirs: only another admin may reset it (ResetSecondFactor).
  if (customer.role !== 'customer') refuse('staff_second_factor_required');
  if (!customer.secondFactor) refuse('second_factor_not_enabled');
  if (!command.passwordMatches) refuse('password_incorrect');
  if (!command.codeMatches) refuse('invalid_code');
  return [event('SecondFactorRemoved', { removedBy: customer.userId, occurredAt: command.now })];
}

function resetSecondFactor(command: ResetSecondFactor, customer: Customer): CustomerEvent[] {
  const reason = command.reason.trim();
  if (!reason) refuse('reason_required');
  if (customer.role === 'admin' && command.adminId === customer.userId) refuse('reset_own_second_factor');
  if (!customer.secondFactor) refuse('second_factor_not_enabled');
  return [event('SecondFactorReset', { adminId: command.adminId, reason, occurredAt: command.now })];
}

function useRecoveryCode(command: UseRecoveryCode, customer: Customer): CustomerEvent[] {
  const factor = customer.secondFactor;
  const { index } = command;
  // Unknown, already used, or no second factor at all: the same refusal, saying nothing about which.
  if (!factor || index === null || index < 0 || index >= factor.recoveryCodes.length || factor.usedRecoveryCodes.includes(index)) refuse('invalid_code');
  return [event('RecoveryCodeUsed', { index, remaining: recoveryCodesLeft(customer) - 1, occurredAt: command.now })];
}

/**
 * Decides a customer command. Throws DomainError when refused; returns [] when nothing changes
 * (e.g. blocking a blocked customer, a profile edit that changes nothing).
 */
export function decideCustomer(command: CustomerCommand, state: CustomerState): CustomerEvent[] {
  if (command.type === 'RegisterCustomer') return register(command, state);
  const customer = requireActiveCustomer(state);
  switch (command.type) {
    case 'ChangeProfile':
      return changeProfile(command, customer);
    case 'ChangePassword':
      if (!command.oldPasswordMatches) refuse('old_password_incorrect');
      if (!present(command.newPasswordHash)) refuse('all_fields_required');
      return [event('PasswordChanged', { passwordHash: command.newPasswordHash, changedBy: customer.userId, occurredAt: command.now })];
    case 'SubmitVerification':
      return submitVerification(command, customer);
    case 'SetProfilePicture':
      assertFileSize(command.picture);
      return [event('ProfilePictureSet', { fileId: command.picture.fileId, sha256: command.picture.sha256, occurredAt: command.now })];
    case 'RequestCard':
      if (customer.cardRequests.some((request) => request.requestId === command.requestId)) return [];
      return [event('CardRequested', { requestId: command.requestId, cardType: command.cardType ?? null, requestedAt: command.now })];
    case 'EditCustomerProfile':
      return editProfile(command, customer);
    case 'SetVerificationStatus':
      if (command.status === customer.verificationStatus) return [];
      return [
        event('VerificationStatusSet', {
          status: command.status,
          previousStatus: customer.verificationStatus,
          adminId: command.adminId,
          occurredAt: command.now,
        }),
      ];
    case 'SetPaymentPin':
      if (!present(command.pinHash)) refuse('all_fields_required');
      return [event('PaymentPinSet', { pinHash: command.pinHash, adminId: command.adminId, occurredAt: command.now })];
    case 'BlockCustomer':
      return customer.isBlocked ? [] : [event('CustomerBlocked', { adminId: command.adminId, occurredAt: command.now })];
    case 'UnblockCustomer':
      return customer.isBlocked ? [event('CustomerUnblocked', { adminId: command.adminId, occurredAt: command.now })] : [];
    case 'DisableCustomer':
      return customer.isDisabled ? [] : [event('CustomerDisabled', { adminId: command.adminId, occurredAt: command.now })];
    case 'EnableCustomer':
      return customer.isDisabled ? [event('CustomerEnabled', { adminId: command.adminId, occurredAt: command.now })] : [];
    case 'ChangeAccountNumber':
      if (!isAccountNumber(command.accountNumber)) refuse('invalid_account_number');
      if (command.accountNumber === customer.accountNumber) return [];
      return [
        event('AccountNumberChanged', {
          previous: customer.accountNumber,
          next: command.accountNumber,
          adminId: command.adminId,
          occurredAt: command.now,
        }),
      ];
    case 'AdminEditCustomer':
      return adminEdit(command, customer);
    case 'CloseCustomer':
      return [event('CustomerClosed', { adminId: command.adminId, closedAt: command.now })];
    case 'EnrolSecondFactor':
      return enrolSecondFactor(command, customer);
    case 'RemoveSecondFactor':
      return removeSecondFactor(command, customer);
    case 'ResetSecondFactor':
      return resetSecondFactor(command, customer);
    case 'UseRecoveryCode':
      return useRecoveryCode(command, customer);
    default:
      return assertNever(command);
  }
}

export const customerDecider: Decider<CustomerCommand, CustomerEvent, CustomerState> = {
  name: 'customer',
  stateVersion: 1,
  initialState: initialCustomerState,
  evolve: evolveCustomer,
  decide: decideCustomer,
};
