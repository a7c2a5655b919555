import { describe, expect, it } from 'vitest';
import { foldEvents } from '../decider';
import { ADMIN_ID, NOW, registered } from '../testing/fixtures';
import { canSignIn } from './canSignIn';
import type { CustomerEvent } from './customerDecider';
import { evolveCustomer } from './customerDecider';
import { initialCustomerState } from './customerState';

const stateOf = (...events: CustomerEvent[]) => foldEvents(evolveCustomer, initialCustomerState, events);
const staff = { adminId: ADMIN_ID, occurredAt: NOW };

describe('canSignIn', () => {
  it('lets an active customer sign in', () => {
    expect(canSignIn(stateOf(registered()))).toEqual({ ok: true });
  });

  it('lets a blocked customer sign in (blocking only stops transfers)', () => {
    expect(canSignIn(stateOf(registered(), { type: 'CustomerBlocked', data: staff }))).toEqual({ ok: true });
  });

  it('refuses a disabled customer with 403', () => {
    expect(canSignIn(stateOf(registered(), { type: 'CustomerDisabled', data: staff }))).toEqual({
      ok: false,
      reason: 'disabled',
      httpStatus: 403,
      message: 'Your account has been disabled, please contact bank support',
    });
  });

  it('lets a re-enabled customer sign in', () => {
    expect(canSignIn(stateOf(registered(), { type: 'CustomerDisabled', data: staff }, { type: 'CustomerEnabled', data: staff }))).toEqual({ ok: true });
  });

  it('answers a closed customer like wrong credentials (401)', () => {
    expect(canSignIn(stateOf(registered(), { type: 'CustomerClosed', data: { adminId: ADMIN_ID, closedAt: NOW } }))).toEqual({
      ok: false,
      reason: 'closed',
      httpStatus: 401,
      message: 'Invalid email or password',
    });
  });

  it('answers an unknown user like wrong credentials (401)', () => {
    expect(canSignIn(initialCustomerState)).toMatchObject({ ok: false, reason: 'not_found', httpStatus: 401, message: 'Invalid email or password' });
  });
});
