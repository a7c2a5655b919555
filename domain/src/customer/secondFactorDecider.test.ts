import { describe, expect, it } from 'vitest';
import { foldEvents } from '../decider';
import type { EventOf } from '../events/eventSchemas';
import { maskSecrets } from '../events/maskSecrets';
import { deciderSpecification, refused } from '../testing/deciderSpecification';
import { ADMIN_ID, CUSTOMER_ID, LATER, NOW, registered, uuid } from '../testing/fixtures';
import { customerDecider } from './customerDecider';
import { recoveryCodesLeft } from './customerState';

const { given } = deciderSpecification(customerDecider);

const secret = { keyId: 'k1', iv: 'aXY=', ciphertext: 'Y2lwaGVy', tag: 'dGFn' };
const codes = Array.from({ length: 10 }, (_, index) => ({ keyId: 'k1', hash: `hash-${index}` }));
const enrolled: EventOf<'SecondFactorEnrolled'> = { type: 'SecondFactorEnrolled', data: { method: 'totp', secret, recoveryCodes: codes, occurredAt: NOW } };
const enrol = { type: 'EnrolSecondFactor', secret, recoveryCodes: codes, codeMatches: true, now: NOW } as const;
const OTHER_ADMIN_ID = uuid(9);

describe('enrolling a second factor', () => {
  it('records the encrypted secret and the ten hashed recovery codes once the code matched', () => {
    given([registered()]).when(enrol).then([enrolled]);
  });

  it('refuses a wrong code, a second enrolment and a wrong number of recovery codes', () => {
    given([registered()]).when({ ...enrol, codeMatches: false }).then(refused('invalid_code', 'Invalid code'));
    given([registered(), enrolled]).when(enrol).then(refused('second_factor_enabled', 'The second factor is already turned on'));
    given([registered()]).when({ ...enrol, recoveryCodes: codes.slice(1) }).then(refused('all_fields_required', 'All fields are required'));
  });

  it('enrols staff the same way, in their own stream', () => {
    given([registered({ role: 'admin' })]).when(enrol).then([enrolled]);
  });
});

describe('turning the second factor off', () => {
  const remove = { type: 'RemoveSecondFactor', passwordMatches: true, codeMatches: true, now: LATER } as const;

  it('lets a customer turn it off with the password and a current code', () => {
    given([registered(), enrolled]).when(remove).then([{ type: 'SecondFactorRemoved', data: { removedBy: CUSTOMER_ID, occurredAt: LATER } }]);
  });

  it('refuses a wrong password, a wrong code, or nothing to remove', () => {
    given([registered(), enrolled]).when({ ...remove, passwordMatches: false }).then(refused('password_incorrect', 'Password is incorrect'));
    given([registered(), enrolled]).when({ ...remove, codeMatches: false }).then(refused('invalid_code', 'Invalid code'));
    given([registered()]).when(remove).then(refused('second_factor_not_enabled', 'The second factor is not turned on'));
  });

  it('refuses staff (403): their factor is required and only another admin may reset it', () => {
    for (const role of ['admin', 'auditor'] as const) {
      given([registered({ role }), enrolled]).when(remove).then(refused('staff_second_factor_required', 'Staff must keep a second factor'));
    }
  });
});

describe('an admin resetting a second factor', () => {
  const reset = { type: 'ResetSecondFactor', adminId: ADMIN_ID, reason: '  Lost phone, identity checked by call  ', now: LATER } as const;

  it("records the admin and the trimmed reason; the user has none afterwards", () => {
    given([registered(), enrolled])
      .when(reset)
      .then([{ type: 'SecondFactorReset', data: { adminId: ADMIN_ID, reason: 'Lost phone, identity checked by call', occurredAt: LATER } }]);
    const state = foldEvents(customerDecider.evolve, customerDecider.initialState, [
      registered(),
      enrolled,
      { type: 'SecondFactorReset', data: { adminId: ADMIN_ID, reason: 'x', occurredAt: LATER } },
    ]);
    expect(state).toMatchObject({ secondFactor: null });
  });

  it('lets another admin reset an admin, but not the admin themselves', () => {
    const admin = registered({ userId: ADMIN_ID, role: 'admin' });
    given([admin, enrolled]).when({ ...reset, adminId: OTHER_ADMIN_ID }).then([
      { type: 'SecondFactorReset', data: { adminId: OTHER_ADMIN_ID, reason: 'Lost phone, identity checked by call', occurredAt: LATER } },
    ]);
    given([admin, enrolled]).when(reset).then(refused('reset_own_second_factor', 'Another admin must reset your second factor'));
  });

  it('needs a reason and a second factor to reset', () => {
    given([registered(), enrolled]).when({ ...reset, reason: '   ' }).then(refused('reason_required', 'A reason is required'));
    given([registered()]).when(reset).then(refused('second_factor_not_enabled', 'The second factor is not turned on'));
  });
});

describe('recovery codes', () => {
  const use = (index: number | null) => ({ type: 'UseRecoveryCode', index, now: LATER }) as const;
  const used = (index: number, remaining: number): EventOf<'RecoveryCodeUsed'> => ({ type: 'RecoveryCodeUsed', data: { index, remaining, occurredAt: LATER } });

  it('uses a code once and says how many are left', () => {
    given([registered(), enrolled]).when(use(3)).then([used(3, 9)]);
    given([registered(), enrolled, used(3, 9)]).when(use(0)).then([used(0, 8)]);
    const state = foldEvents(customerDecider.evolve, customerDecider.initialState, [registered(), enrolled, used(3, 9), used(0, 8)]);
    expect(state.status === 'active' && recoveryCodesLeft(state)).toBe(8);
  });

  it('refuses a code used before, one that matched nothing, and any code without a second factor, alike', () => {
    given([registered(), enrolled, used(3, 9)]).when(use(3)).then(refused('invalid_code', 'Invalid code'));
    given([registered(), enrolled]).when(use(null)).then(refused('invalid_code', 'Invalid code'));
    given([registered(), enrolled]).when(use(10)).then(refused('invalid_code', 'Invalid code'));
    given([registered()]).when(use(0)).then(refused('invalid_code', 'Invalid code'));
  });

  it('a new enrolment after a reset starts with ten fresh codes', () => {
    const state = foldEvents(customerDecider.evolve, customerDecider.initialState, [
      registered(),
      enrolled,
      used(1, 9),
      { type: 'SecondFactorReset', data: { adminId: ADMIN_ID, reason: 'x', occurredAt: LATER } },
      enrolled,
    ]);
    expect(state.status === 'active' && recoveryCodesLeft(state)).toBe(10);
  });
});

describe('what auditors see', () => {
  it('masks the encrypted secret and the recovery-code hashes', () => {
    expect(maskSecrets(enrolled)).toEqual({ method: 'totp', secret: '***', recoveryCodes: '***', occurredAt: NOW });
  });
});
