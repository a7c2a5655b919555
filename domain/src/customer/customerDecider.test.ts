import { describe, expect, it } from 'vitest';
import { deciderSpecification, refused } from '../testing/deciderSpecification';
import { ADMIN_ID, CUSTOMER_ID, NOW, pinSet, registered, sha, uuid } from '../testing/fixtures';
import { MAX_FILE_BYTES } from '../primitives';
import type { FileUpload } from './customerCommands';
import { customerDecider } from './customerDecider';
import type { CustomerEvent } from './customerDecider';
import { foldEvents } from '../decider';

const { given } = deciderSpecification(customerDecider);

const file = (n: number, sizeBytes = 1000): FileUpload => ({ fileId: uuid(100 + n), sha256: sha(n), sizeBytes });
const ref = (n: number) => ({ fileId: uuid(100 + n), sha256: sha(n) });
const closed: CustomerEvent = { type: 'CustomerClosed', data: { adminId: ADMIN_ID, closedAt: NOW } };

describe('registering a user', () => {
  const command = {
    type: 'RegisterCustomer',
    userId: CUSTOMER_ID,
    firstName: ' Ada ',
    lastName: 'Lovelace',
    email: ' Ada@Example.COM ',
    phone: '555-0100',
    address: '1 Analytical Way',
    state: 'NY',
    passwordHash: '$2b$10$hash',
    accountNumber: '1234567890',
    role: 'customer',
    now: NOW,
  } as const;

  it('records the registration with a lower-cased e-mail and trimmed names', () => {
    given([]).when(command).then([registered()]);
  });

  it('starts awaiting verification, unblocked, enabled, without pin', () => {
    const state = foldEvents(customerDecider.evolve, customerDecider.initialState, [registered()]);
    expect(state).toMatchObject({ status: 'active', verificationStatus: 'awaiting', isBlocked: false, isDisabled: false, pinHash: null });
  });

  it('registers staff with their role', () => {
    given([]).when({ ...command, role: 'auditor' }).then([registered({ role: 'auditor' })]);
  });

  it('refuses to register the same user twice', () => {
    given([registered()]).when(command).then(refused('already_exists', 'User already registered'));
  });

  it('refuses an account number that is not 10 digits', () => {
    given([]).when({ ...command, accountNumber: '123' }).then(refused('invalid_account_number', 'Account number must be 10 digits'));
  });

  it('refuses missing names', () => {
    given([]).when({ ...command, firstName: ' ' }).then(refused('all_fields_required', 'All fields are required'));
  });
});

describe('a customer editing their profile', () => {
  const edit = { type: 'ChangeProfile', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '555-0199', address: '2 Engine St', state: 'NY', now: NOW } as const;

  it('records only the changed fields, before and after, changed by the customer', () => {
    given([registered()])
      .when(edit)
      .then([
        {
          type: 'ProfileChanged',
          data: { before: { phone: '555-0100', address: '1 Analytical Way' }, after: { phone: '555-0199', address: '2 Engine St' }, changedBy: CUSTOMER_ID, occurredAt: NOW },
        },
      ]);
  });

  it('records nothing when nothing changes', () => {
    given([registered()]).when({ ...edit, phone: '555-0100', address: '1 Analytical Way' }).then([]);
  });

  it('lower-cases a new e-mail', () => {
    given([registered()])
      .when({ ...edit, email: 'ADA@new.example', phone: '555-0100', address: '1 Analytical Way' })
      .then([{ type: 'ProfileChanged', data: { before: { email: 'ada@example.com' }, after: { email: 'ada@new.example' }, changedBy: CUSTOMER_ID, occurredAt: NOW } }]);
  });

  it('refuses a changed first name: names are read-only', () => {
    given([registered()]).when({ ...edit, firstName: 'Augusta' }).then(refused('names_read_only', 'First name and last name cannot be changed'));
  });

  it('refuses a changed last name: names are read-only', () => {
    given([registered()]).when({ ...edit, lastName: 'King' }).then(refused('names_read_only', 'First name and last name cannot be changed'));
  });

  it('accepts omitted names as unchanged', () => {
    given([registered()]).when({ type: 'ChangeProfile', email: 'ada@example.com', phone: '555-0100', address: '1 Analytical Way', state: 'NY', now: NOW }).then([]);
  });

  it('refuses an empty e-mail, phone, address or state', () => {
    given([registered()]).when({ ...edit, state: '' }).then(refused('all_fields_required', 'All fields are required'));
  });

  it('refuses an unknown user', () => {
    given([]).when(edit).then(refused('not_found', 'User not found'));
  });
});

describe('changing the password', () => {
  it('records the new hash, changed by the customer', () => {
    given([registered()])
      .when({ type: 'ChangePassword', oldPasswordMatches: true, newPasswordHash: '$2b$new', now: NOW })
      .then([{ type: 'PasswordChanged', data: { passwordHash: '$2b$new', changedBy: CUSTOMER_ID, occurredAt: NOW } }]);
  });

  it("refuses when the old password doesn't match", () => {
    given([registered()])
      .when({ type: 'ChangePassword', oldPasswordMatches: false, newPasswordHash: '$2b$new', now: NOW })
      .then(refused('old_password_incorrect', 'Old password is incorrect'));
  });
});

describe('submitting identity verification', () => {
  const submit = {
    type: 'SubmitVerification',
    documentType: 'passport',
    passport: file(1),
    documentFront: file(2),
    documentBack: file(3),
    dateOfBirth: '1990-12-10',
    now: NOW,
  } as const;

  it('records the documents and moves the status to pending', () => {
    given([registered()])
      .when(submit)
      .then([
        {
          type: 'VerificationSubmitted',
          data: { documentType: 'passport', passport: ref(1), documentFront: ref(2), documentBack: ref(3), dateOfBirth: '1990-12-10', previousStatus: 'awaiting', submittedAt: NOW },
        },
      ]);
    const state = foldEvents(customerDecider.evolve, customerDecider.initialState, [registered(), ...customerDecider.decide(submit, foldEvents(customerDecider.evolve, customerDecider.initialState, [registered()]))]);
    expect(state).toMatchObject({ verificationStatus: 'pending', verification: { documentType: 'passport', dateOfBirth: '1990-12-10' } });
  });

  it('uses the front as the back when no back is given', () => {
    const decision = given([registered()]).when({ ...submit, documentBack: undefined }).decision();
    expect(decision[0]?.data).toMatchObject({ documentBack: ref(2) });
  });

  it.each(['passport', 'national-id', 'driver-license', 'other'] as const)('accepts document type %s', (documentType) => {
    expect(given([registered()]).when({ ...submit, documentType }).decision()).toHaveLength(1);
  });

  it('refuses without a passport photo', () => {
    given([registered()]).when({ ...submit, passport: undefined }).then(refused('all_fields_required', 'All fields are required'));
  });

  it('refuses without a document front', () => {
    given([registered()]).when({ ...submit, documentFront: undefined }).then(refused('all_fields_required', 'All fields are required'));
  });

  it('refuses without a date of birth', () => {
    given([registered()]).when({ ...submit, dateOfBirth: undefined }).then(refused('all_fields_required', 'All fields are required'));
  });

  it('refuses without a document type', () => {
    given([registered()]).when({ ...submit, documentType: undefined }).then(refused('all_fields_required', 'All fields are required'));
  });

  it.each([
    ['passport', { passport: file(1, MAX_FILE_BYTES + 1) }],
    ['document front', { documentFront: file(2, MAX_FILE_BYTES + 1) }],
    ['document back', { documentBack: file(3, MAX_FILE_BYTES + 1) }],
  ])('refuses a %s larger than 10 MB', (_name, overrides) => {
    given([registered()]).when({ ...submit, ...overrides }).then(refused('file_too_large', 'File size must be less than 10MB'));
  });

  it('accepts a file of exactly 10 MB', () => {
    expect(given([registered()]).when({ ...submit, passport: file(1, MAX_FILE_BYTES) }).decision()).toHaveLength(1);
  });

  it('refuses a customer under 18', () => {
    given([registered()]).when({ ...submit, dateOfBirth: '2007-06-02' }).then(refused('underage', 'You must be at least 18 years old'));
  });

  it('accepts a customer on their 18th birthday', () => {
    expect(given([registered()]).when({ ...submit, dateOfBirth: '2007-06-01' }).decision()).toHaveLength(1);
  });

  it('refuses an impossible date of birth', () => {
    given([registered()]).when({ ...submit, dateOfBirth: '1990-02-30' }).then(refused('invalid_date_of_birth', 'Date of birth is not a valid date'));
  });
});

describe('the profile picture', () => {
  it('records the stored file', () => {
    given([registered()])
      .when({ type: 'SetProfilePicture', picture: file(7), now: NOW })
      .then([{ type: 'ProfilePictureSet', data: { ...ref(7), occurredAt: NOW } }]);
  });

  it('refuses a picture larger than 10 MB', () => {
    given([registered()]).when({ type: 'SetProfilePicture', picture: file(7, MAX_FILE_BYTES + 1), now: NOW }).then(refused('file_too_large', 'File size must be less than 10MB'));
  });
});

describe('requesting a card', () => {
  it('records the request', () => {
    given([registered()])
      .when({ type: 'RequestCard', requestId: uuid(50), cardType: 'cashback', now: NOW })
      .then([{ type: 'CardRequested', data: { requestId: uuid(50), cardType: 'cashback', requestedAt: NOW } }]);
  });

  it('records a request without a type as null', () => {
    given([registered()])
      .when({ type: 'RequestCard', requestId: uuid(50), now: NOW })
      .then([{ type: 'CardRequested', data: { requestId: uuid(50), cardType: null, requestedAt: NOW } }]);
  });

  it('does not record the same request twice', () => {
    given([registered(), { type: 'CardRequested', data: { requestId: uuid(50), cardType: null, requestedAt: NOW } }])
      .when({ type: 'RequestCard', requestId: uuid(50), now: NOW })
      .then([]);
  });
});

describe('staff actions on a customer', () => {
  const adminEdit = {
    type: 'AdminEditCustomer',
    adminId: ADMIN_ID,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '555-0100',
    address: '1 Analytical Way',
    state: 'NY',
    now: NOW,
  } as const;

  it('may change names, naming the admin', () => {
    given([registered()])
      .when({ ...adminEdit, type: 'EditCustomerProfile', firstName: 'Augusta' })
      .then([{ type: 'ProfileChanged', data: { before: { firstName: 'Ada' }, after: { firstName: 'Augusta' }, changedBy: ADMIN_ID, occurredAt: NOW } }]);
  });

  it.each(['firstName', 'lastName', 'email', 'phone', 'address', 'state'] as const)('refuses an edit with %s missing', (field) => {
    given([registered()]).when({ ...adminEdit, [field]: '' }).then(refused('all_fields_required', 'All fields are required'));
    given([registered()]).when({ ...adminEdit, [field]: undefined }).then(refused('all_fields_required', 'All fields are required'));
  });

  it('records one fact per change of the whole admin form', () => {
    given([registered()])
      .when({ ...adminEdit, phone: '555-0111', verificationStatus: 'verified', isBlocked: true, isDisabled: true, pinHash: '$2b$pin' })
      .then([
        { type: 'ProfileChanged', data: { before: { phone: '555-0100' }, after: { phone: '555-0111' }, changedBy: ADMIN_ID, occurredAt: NOW } },
        { type: 'VerificationStatusSet', data: { status: 'verified', previousStatus: 'awaiting', adminId: ADMIN_ID, occurredAt: NOW } },
        { type: 'CustomerBlocked', data: { adminId: ADMIN_ID, occurredAt: NOW } },
        { type: 'CustomerDisabled', data: { adminId: ADMIN_ID, occurredAt: NOW } },
        { type: 'PaymentPinSet', data: { pinHash: '$2b$pin', adminId: ADMIN_ID, occurredAt: NOW } },
      ]);
  });

  it('records nothing when the admin form changes nothing', () => {
    given([registered()]).when({ ...adminEdit, verificationStatus: 'awaiting', isBlocked: false, isDisabled: false }).then([]);
  });

  it.each(['awaiting', 'pending', 'verified', 'failed'] as const)('may set the verification status to %s', (status) => {
    const events = given([registered({}), { type: 'VerificationStatusSet', data: { status: 'failed', previousStatus: 'awaiting', adminId: ADMIN_ID, occurredAt: NOW } }])
      .when({ type: 'SetVerificationStatus', adminId: ADMIN_ID, status, now: NOW })
      .decision();
    expect(events).toEqual(status === 'failed' ? [] : [{ type: 'VerificationStatusSet', data: { status, previousStatus: 'failed', adminId: ADMIN_ID, occurredAt: NOW } }]);
  });

  it('sets the payment pin hash', () => {
    given([registered()]).when({ type: 'SetPaymentPin', adminId: ADMIN_ID, pinHash: '$2b$10$pin', now: NOW }).then([pinSet()]);
  });

  it('blocks and unblocks, idempotently', () => {
    const blocked: CustomerEvent = { type: 'CustomerBlocked', data: { adminId: ADMIN_ID, occurredAt: NOW } };
    given([registered()]).when({ type: 'BlockCustomer', adminId: ADMIN_ID, now: NOW }).then([blocked]);
    given([registered(), blocked]).when({ type: 'BlockCustomer', adminId: ADMIN_ID, now: NOW }).then([]);
    given([registered(), blocked]).when({ type: 'UnblockCustomer', adminId: ADMIN_ID, now: NOW }).then([{ type: 'CustomerUnblocked', data: { adminId: ADMIN_ID, occurredAt: NOW } }]);
    given([registered()]).when({ type: 'UnblockCustomer', adminId: ADMIN_ID, now: NOW }).then([]);
  });

  it('disables and enables, idempotently', () => {
    const disabled: CustomerEvent = { type: 'CustomerDisabled', data: { adminId: ADMIN_ID, occurredAt: NOW } };
    given([registered()]).when({ type: 'DisableCustomer', adminId: ADMIN_ID, now: NOW }).then([disabled]);
    given([registered(), disabled]).when({ type: 'DisableCustomer', adminId: ADMIN_ID, now: NOW }).then([]);
    given([registered(), disabled]).when({ type: 'EnableCustomer', adminId: ADMIN_ID, now: NOW }).then([{ type: 'CustomerEnabled', data: { adminId: ADMIN_ID, occurredAt: NOW } }]);
    given([registered()]).when({ type: 'EnableCustomer', adminId: ADMIN_ID, now: NOW }).then([]);
  });

  it('changes the account number, recording previous and next', () => {
    given([registered()])
      .when({ type: 'ChangeAccountNumber', adminId: ADMIN_ID, accountNumber: '0987654321', now: NOW })
      .then([{ type: 'AccountNumberChanged', data: { previous: '1234567890', next: '0987654321', adminId: ADMIN_ID, occurredAt: NOW } }]);
    given([registered()]).when({ type: 'ChangeAccountNumber', adminId: ADMIN_ID, accountNumber: '1234567890', now: NOW }).then([]);
  });

  it('refuses an account number that is not 10 digits', () => {
    given([registered()]).when({ type: 'ChangeAccountNumber', adminId: ADMIN_ID, accountNumber: '12345', now: NOW }).then(refused('invalid_account_number', 'Account number must be 10 digits'));
  });

  it('closes the customer', () => {
    given([registered()]).when({ type: 'CloseCustomer', adminId: ADMIN_ID, now: NOW }).then([closed]);
  });
});

describe('a closed customer', () => {
  it.each([
    { type: 'ChangeProfile', email: 'a@b.co', phone: '1', address: 'x', state: 'y', now: NOW },
    { type: 'ChangePassword', oldPasswordMatches: true, newPasswordHash: 'h', now: NOW },
    { type: 'RequestCard', requestId: uuid(9), now: NOW },
    { type: 'BlockCustomer', adminId: ADMIN_ID, now: NOW },
    { type: 'SetPaymentPin', adminId: ADMIN_ID, pinHash: 'h', now: NOW },
    { type: 'CloseCustomer', adminId: ADMIN_ID, now: NOW },
  ] as const)('accepts no command ($type)', (command) => {
    given([registered(), closed]).when(command).then(refused('closed', 'Account is closed'));
  });
});
