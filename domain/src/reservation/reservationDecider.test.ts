import { describe, it } from 'vitest';
import { deciderSpecification, refused } from '../testing/deciderSpecification';
import { uuid } from '../testing/fixtures';
import { accountNumberReservationDecider, emailReservationDecider } from './reservationDecider';

describe('e-mail reservation', () => {
  const { given } = deciderSpecification(emailReservationDecider);
  const reserved = { type: 'EmailReserved', data: { email: 'ada@example.com', userId: uuid(1) } } as const;

  it('reserves a free e-mail, lower-cased', () => {
    given([]).when({ type: 'ReserveEmail', email: ' Ada@Example.com ', userId: uuid(1) }).then([reserved]);
  });

  it("refuses an e-mail held by someone else: 'Email already registered' (409)", () => {
    given([reserved]).when({ type: 'ReserveEmail', email: 'ADA@example.com', userId: uuid(2) }).then(refused('email_taken', 'Email already registered'));
  });

  it('is a no-op for the same user again', () => {
    given([reserved]).when({ type: 'ReserveEmail', email: 'ada@example.com', userId: uuid(1) }).then([]);
  });

  it('releases for its holder only, and can then be reserved again', () => {
    const released = { type: 'EmailReleased', data: { email: 'ada@example.com', userId: uuid(1) } } as const;
    given([reserved]).when({ type: 'ReleaseEmail', email: 'ada@example.com', userId: uuid(2) }).then([]);
    given([reserved]).when({ type: 'ReleaseEmail', email: 'ada@example.com', userId: uuid(1) }).then([released]);
    given([reserved, released]).when({ type: 'ReserveEmail', email: 'ada@example.com', userId: uuid(2) }).then([{ type: 'EmailReserved', data: { email: 'ada@example.com', userId: uuid(2) } }]);
  });
});

describe('account-number reservation', () => {
  const { given } = deciderSpecification(accountNumberReservationDecider);
  const reserved = { type: 'AccountNumberReserved', data: { accountNumber: '1234567890', userId: uuid(1) } } as const;

  it('reserves a free number', () => {
    given([]).when({ type: 'ReserveAccountNumber', accountNumber: '1234567890', userId: uuid(1) }).then([reserved]);
  });

  it('refuses a number in use (409)', () => {
    given([reserved]).when({ type: 'ReserveAccountNumber', accountNumber: '1234567890', userId: uuid(2) }).then(refused('account_number_taken', 'Account number already in use'));
  });

  it('refuses a number that is not 10 digits', () => {
    given([]).when({ type: 'ReserveAccountNumber', accountNumber: '12345', userId: uuid(1) }).then(refused('invalid_account_number', 'Account number must be 10 digits'));
  });

  it('releases for its holder', () => {
    given([reserved]).when({ type: 'ReleaseAccountNumber', accountNumber: '1234567890', userId: uuid(1) }).then([{ type: 'AccountNumberReleased', data: reserved.data }]);
    given([]).when({ type: 'ReleaseAccountNumber', accountNumber: '1234567890', userId: uuid(1) }).then([]);
  });
});
