import type { Decider } from '../decider';
import { assertNever } from '../decider';
import { refuse } from '../domainError';
import type { EventOf } from '../events/eventSchemas';
import { requireActiveCustomer } from '../customer/customerDecider';
import type { CustomerState } from '../customer/customerState';
import { recipientDetailsProblem, type PaymentOrderFields, type TransferRecipient } from '../transfer/decideTransferRequest';
import { MIN_TRANSFER_CENTS, type AccountKind } from '../primitives';
import { nextOccurrence, scheduleProblem, type Schedule } from './schedule';

/** A standing order, stream `standingOrder-<orderId>`. */

export type StandingOrderStatus = 'active' | 'paused' | 'suspended' | 'cancelled';

export interface OccurrenceRecord {
  readonly date: string;
  readonly status: 'paid' | 'failed' | 'missed';
  readonly transferId?: string;
  readonly reason?: string;
}

export interface StandingOrder {
  readonly status: StandingOrderStatus;
  readonly orderId: string;
  readonly payerId: string;
  readonly from: AccountKind;
  readonly accountNumber: string;
  readonly bankName: string;
  readonly routingNumber: string;
  readonly accountType: AccountKind;
  readonly recipientName: string;
  readonly amountCents: number;
  readonly description: string;
  readonly schedule: Schedule;
  readonly createdAt: string;
  /** Every occurrence on or before this date is settled (paid, failed or missed); '' before the first. */
  readonly settledThrough: string;
  /** Occurrences before this date that were not settled are skipped (set when the order is resumed). */
  readonly skipBefore: string;
  readonly failuresInARow: number;
  readonly paidCount: number;
  /** Why the order was suspended (while suspended). */
  readonly suspendedReason: string | null;
  /** The latest occurrences, newest first (at most RECENT_OCCURRENCES). */
  readonly recent: readonly OccurrenceRecord[];
}

export type StandingOrderState = { readonly status: 'none' } | StandingOrder;

export const initialStandingOrderState: StandingOrderState = Object.freeze({ status: 'none' });
export const RECENT_OCCURRENCES = 12;
/** Failures in a row that suspend an order. */
export const FAILURES_TO_SUSPEND = 3;

export type StandingOrderEvent = EventOf<
  | 'StandingOrderCreated'
  | 'StandingOrderPaused'
  | 'StandingOrderResumed'
  | 'StandingOrderCancelled'
  | 'OccurrencePaid'
  | 'OccurrenceFailed'
  | 'OccurrenceMissed'
  | 'StandingOrderSuspended'
>;

/** POST /standing-orders, decided over the payer's customer state and the resolved recipient (as a transfer is). */
export interface CreateStandingOrder extends PaymentOrderFields {
  readonly type: 'CreateStandingOrder';
  readonly orderId: string;
  readonly payerId: string;
  readonly customer: CustomerState;
  readonly recipient: TransferRecipient;
  readonly pinMatches: boolean;
  readonly schedule: Schedule;
  /** Today (UTC) by the service's clock: the first date may not be before it. */
  readonly today: string;
  readonly now: string;
}

interface ByPayer {
  /** The user asking: only the payer may change an order (anyone else: not found). */
  readonly userId: string;
  readonly now: string;
}
export interface PauseStandingOrder extends ByPayer {
  readonly type: 'PauseStandingOrder';
}
export interface ResumeStandingOrder extends ByPayer {
  readonly type: 'ResumeStandingOrder';
  readonly today: string;
}
export interface CancelStandingOrder extends ByPayer {
  readonly type: 'CancelStandingOrder';
}

/** The runner's outcome of one due occurrence. */
export interface RecordOccurrence {
  readonly type: 'RecordOccurrence';
  readonly date: string;
  readonly outcome: { readonly status: 'paid'; readonly transferId: string } | { readonly status: 'failed'; readonly reason: string } | { readonly status: 'missed' };
  readonly now: string;
}

export type StandingOrderCommand = CreateStandingOrder | PauseStandingOrder | ResumeStandingOrder | CancelStandingOrder | RecordOccurrence;

function settle(state: StandingOrder, record: OccurrenceRecord): StandingOrder {
  return {
    ...state,
    settledThrough: record.date > state.settledThrough ? record.date : state.settledThrough,
    failuresInARow: record.status === 'failed' ? state.failuresInARow + 1 : record.status === 'paid' ? 0 : state.failuresInARow,
    paidCount: state.paidCount + (record.status === 'paid' ? 1 : 0),
    recent: [record, ...state.recent].slice(0, RECENT_OCCURRENCES),
  };
}

export function evolveStandingOrder(state: StandingOrderState, event: StandingOrderEvent): StandingOrderState {
  if (event.type === 'StandingOrderCreated') {
    const { createdAt, schedule, ...rest } = event.data;
    return {
      ...rest,
      schedule: { ...schedule },
      createdAt,
      status: 'active',
      settledThrough: '',
      skipBefore: schedule.firstDate,
      failuresInARow: 0,
      paidCount: 0,
      suspendedReason: null,
      recent: [],
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'StandingOrderPaused':
      return { ...state, status: 'paused' };
    case 'StandingOrderResumed':
      return { ...state, status: 'active', skipBefore: event.data.resumedOn, failuresInARow: 0, suspendedReason: null };
    case 'StandingOrderCancelled':
      return { ...state, status: 'cancelled' };
    case 'StandingOrderSuspended':
      return { ...state, status: 'suspended', suspendedReason: event.data.reason };
    case 'OccurrencePaid':
      return settle(state, { date: event.data.date, status: 'paid', transferId: event.data.transferId });
    case 'OccurrenceFailed':
      return settle(state, { date: event.data.date, status: 'failed', reason: event.data.reason });
    case 'OccurrenceMissed':
      return settle(state, { date: event.data.date, status: 'missed' });
    default:
      return assertNever(event);
  }
}

/** The next occurrence still to settle (undefined when the schedule has ended); whatever the status. */
export function pendingOccurrence(order: StandingOrder): string | undefined {
  let after = order.settledThrough;
  for (;;) {
    const date = nextOccurrence(order.schedule, after);
    if (date === undefined || date >= order.skipBefore) return date;
    after = date;
  }
}

/** The date the order pays next, as shown to the customer: none unless active. */
export function nextPaymentDate(order: StandingOrder): string | undefined {
  return order.status === 'active' ? pendingOccurrence(order) : undefined;
}

function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

function create(command: CreateStandingOrder): StandingOrderEvent[] {
  // The refusals of a one-off transfer, in its order (decideTransferRequest), but the balance: it is checked at each occurrence.
  const customer = requireActiveCustomer(command.customer);
  if (customer.userId !== command.payerId) throw new TypeError('CreateStandingOrder.payerId must be the id of the customer state given');
  if (customer.isBlocked) refuse('blocked');
  if (customer.pinHash === null) refuse('no_pin');
  if (!command.pinMatches) refuse('wrong_pin');
  const { amountCents, accountType, recipient } = command;
  const accountNumber = command.accountNumber?.trim();
  if (amountCents === undefined || accountType === undefined || !present(accountNumber)) refuse('fill_fields');
  const toSelf = accountNumber === customer.accountNumber || (recipient.kind === 'internal' && recipient.payeeId === customer.userId);
  if (toSelf && accountType === command.from) refuse('same_account');
  if (!Number.isSafeInteger(amountCents) || amountCents < MIN_TRANSFER_CENTS) refuse('invalid_amount', 'Amount must be at least 1');
  const detailsProblem = recipientDetailsProblem(recipient, command.routingNumber, accountNumber);
  if (detailsProblem) refuse(detailsProblem);
  const problem = scheduleProblem(command.schedule);
  if (problem) refuse('invalid_schedule', problem);
  if (command.schedule.firstDate < command.today) refuse('invalid_schedule', 'First date cannot be in the past');
  const { frequency, day, firstDate, endDate, count } = command.schedule;
  return [
    {
      type: 'StandingOrderCreated',
      data: {
        orderId: command.orderId,
        payerId: command.payerId,
        from: command.from,
        accountNumber,
        bankName: command.bankName?.trim() ?? '',
        routingNumber: command.routingNumber?.trim() ?? '',
        accountType,
        recipientName: recipient.kind === 'internal' ? recipient.name : (recipient.name ?? command.to ?? '').trim(),
        amountCents,
        description: command.description?.trim() ?? '',
        schedule: { frequency, day, firstDate, ...(endDate !== undefined ? { endDate } : {}), ...(count !== undefined ? { count } : {}) },
        createdAt: command.now,
      },
    },
  ];
}

function ownOrder(state: StandingOrderState, userId: string): StandingOrder {
  if (state.status === 'none' || state.payerId !== userId) refuse('not_found', 'Standing order not found');
  return state;
}

function recordOccurrence(command: RecordOccurrence, state: StandingOrderState): StandingOrderEvent[] {
  if (state.status === 'none') refuse('not_found', 'Standing order not found');
  // Already settled (a retry, another runner): nothing to add. Only the pending occurrence can be settled.
  if (command.date <= state.settledThrough) return [];
  if (command.date !== pendingOccurrence(state)) refuse('invalid_schedule', `${command.date} is not the order's next occurrence`);
  const base = { orderId: state.orderId, date: command.date, occurredAt: command.now };
  const { outcome } = command;
  switch (outcome.status) {
    case 'paid':
      return [{ type: 'OccurrencePaid', data: { ...base, transferId: outcome.transferId } }];
    case 'missed':
      return [{ type: 'OccurrenceMissed', data: base }];
    case 'failed': {
      const failed: StandingOrderEvent = { type: 'OccurrenceFailed', data: { ...base, reason: outcome.reason } };
      if (state.status !== 'active' || state.failuresInARow + 1 < FAILURES_TO_SUSPEND) return [failed];
      const reason = `${FAILURES_TO_SUSPEND} payments in a row failed (last: ${outcome.reason})`;
      return [failed, { type: 'StandingOrderSuspended', data: { orderId: state.orderId, reason, occurredAt: command.now } }];
    }
    default:
      return assertNever(outcome);
  }
}

export function decideStandingOrder(command: StandingOrderCommand, state: StandingOrderState): StandingOrderEvent[] {
  switch (command.type) {
    case 'CreateStandingOrder':
      return state.status === 'none' ? create(command) : [];
    case 'PauseStandingOrder': {
      const order = ownOrder(state, command.userId);
      if (order.status === 'cancelled') refuse('order_cancelled');
      if (order.status !== 'active') return [];
      return [{ type: 'StandingOrderPaused', data: { orderId: order.orderId, occurredAt: command.now } }];
    }
    case 'ResumeStandingOrder': {
      const order = ownOrder(state, command.userId);
      if (order.status === 'cancelled') refuse('order_cancelled');
      if (order.status === 'active') return [];
      return [{ type: 'StandingOrderResumed', data: { orderId: order.orderId, resumedOn: command.today, occurredAt: command.now } }];
    }
    case 'CancelStandingOrder': {
      const order = ownOrder(state, command.userId);
      if (order.status === 'cancelled') return [];
      return [{ type: 'StandingOrderCancelled', data: { orderId: order.orderId, occurredAt: command.now } }];
    }
    case 'RecordOccurrence':
      return recordOccurrence(command, state);
    default:
      return assertNever(command);
  }
}

export const standingOrderDecider: Decider<StandingOrderCommand, StandingOrderEvent, StandingOrderState> = {
  name: 'standingOrder',
  stateVersion: 1,
  initialState: initialStandingOrderState,
  evolve: evolveStandingOrder,
  decide: decideStandingOrder,
};
