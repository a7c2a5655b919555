import { describe, expect, it } from 'vitest';
import { evolveCustomer } from '../customer/customerDecider';
import { initialCustomerState } from '../customer/customerState';
import { deciderSpecification, refused } from '../testing/deciderSpecification';
import { CUSTOMER_ID, NOW, PAYEE_ACCOUNT_NUMBER, PAYEE_ID, pinSet, registered, uuid } from '../testing/fixtures';
import {
  evolveStandingOrder,
  initialStandingOrderState,
  nextPaymentDate,
  standingOrderDecider,
  type CreateStandingOrder,
  type StandingOrder,
  type StandingOrderEvent,
} from './standingOrderDecider';

const ORDER = uuid(700);
const customer = [registered(), pinSet()].reduce(evolveCustomer, initialCustomerState);
const create: CreateStandingOrder = {
  type: 'CreateStandingOrder',
  orderId: ORDER,
  payerId: CUSTOMER_ID,
  customer,
  recipient: { kind: 'internal', payeeId: PAYEE_ID, name: 'Bob Payee' },
  pinMatches: true,
  from: 'checking',
  amountCents: 12_500,
  accountNumber: PAYEE_ACCOUNT_NUMBER,
  accountType: 'savings',
  description: ' Rent ',
  schedule: { frequency: 'monthly', day: 31, firstDate: '2025-06-30' },
  today: '2025-06-01',
  now: NOW,
};
const created: StandingOrderEvent = {
  type: 'StandingOrderCreated',
  data: {
    orderId: ORDER,
    payerId: CUSTOMER_ID,
    from: 'checking',
    accountNumber: PAYEE_ACCOUNT_NUMBER,
    bankName: '',
    routingNumber: '',
    accountType: 'savings',
    recipientName: 'Bob Payee',
    amountCents: 12_500,
    description: 'Rent',
    schedule: { frequency: 'monthly', day: 31, firstDate: '2025-06-30' },
    createdAt: NOW,
  },
};
const failed = (date: string): StandingOrderEvent => ({ type: 'OccurrenceFailed', data: { orderId: ORDER, date, reason: 'You do not have enough balance', occurredAt: NOW } });
const { given } = deciderSpecification(standingOrderDecider);
const fold = (events: StandingOrderEvent[]) => events.reduce(evolveStandingOrder, initialStandingOrderState) as StandingOrder;

describe('a standing order', () => {
  it('is created from the transfer form plus a schedule, authorised by the payment pin', () => {
    given([]).when(create).then([created]);
    given([created]).when(create).then([]);
    expect(nextPaymentDate(fold([created]))).toBe('2025-06-30');
  });

  it('refuses what a one-off transfer refuses, in its order, and bad schedules', () => {
    given([]).when({ ...create, pinMatches: false }).then(refused('wrong_pin', 'Incorrect payment pin'));
    given([]).when({ ...create, customer: evolveCustomer(initialCustomerState, registered()) }).then(refused('no_pin', 'Please set your payment pin'));
    given([]).when({ ...create, amountCents: undefined }).then(refused('fill_fields', 'Please fill all fields'));
    given([]).when({ ...create, amountCents: 99 }).then(refused('invalid_amount', 'Amount must be at least 1'));
    given([]).when({ ...create, routingNumber: '123456789' }).then(refused('invalid_routing_number', 'Invalid routing number'));
    given([]).when({ ...create, recipient: { kind: 'internal', payeeId: CUSTOMER_ID, name: 'Ada' }, accountType: 'checking' }).then(refused('same_account', 'You cannot transfer to the same account'));
    given([]).when({ ...create, schedule: { frequency: 'weekly', day: 9, firstDate: '2025-06-30' } }).then(refused('invalid_schedule', 'Day must be 1 (Monday) to 7 (Sunday)'));
    given([]).when({ ...create, schedule: { ...create.schedule, firstDate: '2025-05-31' } }).then(refused('invalid_schedule', 'First date cannot be in the past'));
  });

  it('records each occurrence once, in order', () => {
    const paid = { type: 'RecordOccurrence', date: '2025-06-30', outcome: { status: 'paid', transferId: uuid(1) }, now: NOW } as const;
    given([created]).when(paid).then([{ type: 'OccurrencePaid', data: { orderId: ORDER, date: '2025-06-30', transferId: uuid(1), occurredAt: NOW } }]);
    const afterPaid = [created, ...standingOrderDecider.decide(paid, fold([created]))];
    given(afterPaid).when(paid).then([]);
    given(afterPaid).when({ ...paid, date: '2025-08-31' }).then(refused('invalid_schedule', "2025-08-31 is not the order's next occurrence"));
    expect(nextPaymentDate(fold(afterPaid))).toBe('2025-07-31');
  });

  it('suspends after three failures in a row, and a resume starts again from its day', () => {
    const third = { type: 'RecordOccurrence', date: '2025-08-31', outcome: { status: 'failed', reason: 'You do not have enough balance' }, now: NOW } as const;
    given([created, failed('2025-06-30'), failed('2025-07-31')])
      .when(third)
      .then([failed('2025-08-31'), { type: 'StandingOrderSuspended', data: { orderId: ORDER, reason: '3 payments in a row failed (last: You do not have enough balance)', occurredAt: NOW } }]);
    const paidBetween: StandingOrderEvent = { type: 'OccurrencePaid', data: { orderId: ORDER, date: '2025-07-31', transferId: uuid(2), occurredAt: NOW } };
    given([created, failed('2025-06-30'), paidBetween]).when(third).then([failed('2025-08-31')]);
    const suspended = fold([created, failed('2025-06-30'), failed('2025-07-31'), ...standingOrderDecider.decide(third, fold([created, failed('2025-06-30'), failed('2025-07-31')]))]);
    expect(suspended).toMatchObject({ status: 'suspended', suspendedReason: expect.stringContaining('3 payments') });
    expect(nextPaymentDate(suspended)).toBeUndefined();
    const resumed = evolveStandingOrder(suspended, { type: 'StandingOrderResumed', data: { orderId: ORDER, resumedOn: '2025-11-15', occurredAt: NOW } }) as StandingOrder;
    expect(resumed).toMatchObject({ status: 'active', failuresInARow: 0 });
    expect(nextPaymentDate(resumed)).toBe('2025-11-30');
  });

  it('is paused, resumed and cancelled by its payer only', () => {
    const by = { userId: CUSTOMER_ID, now: NOW };
    given([created]).when({ type: 'PauseStandingOrder', ...by }).then([{ type: 'StandingOrderPaused', data: { orderId: ORDER, occurredAt: NOW } }]);
    given([created]).when({ type: 'PauseStandingOrder', userId: PAYEE_ID, now: NOW }).then(refused('not_found', 'Standing order not found'));
    given([created]).when({ type: 'ResumeStandingOrder', today: '2025-06-02', ...by }).then([]);
    const cancelled: StandingOrderEvent = { type: 'StandingOrderCancelled', data: { orderId: ORDER, occurredAt: NOW } };
    given([created]).when({ type: 'CancelStandingOrder', ...by }).then([cancelled]);
    given([created, cancelled]).when({ type: 'CancelStandingOrder', ...by }).then([]);
    given([created, cancelled]).when({ type: 'ResumeStandingOrder', today: '2025-06-02', ...by }).then(refused('order_cancelled', 'Standing order is cancelled'));
    expect(nextPaymentDate(fold([created, cancelled]))).toBeUndefined();
  });
});
