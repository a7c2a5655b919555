import type { Decider } from '../decider';
import { assertNever } from '../decider';
import { refuse } from '../domainError';
import type { BankEvent, BankEventType, EventOf, EventTypeOfStream } from '../events/eventSchemas';
import { eventTypesOfStream } from '../events/eventSchemas';
import { businessDateOf, isCalendarDate } from '../calendar';
import { MAX_AMOUNT_CENTS, MAX_BALANCE_CENTS } from '../money';
import type { AccountKind, Direction } from '../primitives';
import { isAccountNumber } from '../primitives';
import type { AccountCommand, AdjustBalances, CreditForTransfer, PostStaffTransaction, RefundTransfer, ReverseTransaction } from './accountCommands';
import type { AccountState, OpenAccountState } from './accountState';
import { accountSnapshot, forkAccountState, initialAccountState, openAccountState, transactionStatusOf } from './accountState';

export type AccountEventType = EventTypeOfStream<'account'>;

/** The description of an interest payment on the customer's transactions and statements. */
export const INTEREST_DESCRIPTION = 'Interest';
export type AccountEvent = Extract<BankEvent, { type: AccountEventType }>;
/** The account events that move a balance. */
export type MoneyEvent = EventOf<'AccountCredited' | 'AccountDebited' | 'BalanceAdjusted' | 'StaffTransactionPosted' | 'TransactionReversed'>;

const accountEventTypes: ReadonlySet<BankEventType> = new Set(eventTypesOfStream('account'));
export function isAccountEvent(event: BankEvent): event is AccountEvent {
  return accountEventTypes.has(event.type);
}

/** The types of the money events, for readers that select them where they are stored. */
export const MONEY_EVENT_TYPES: readonly MoneyEvent['type'][] = ['AccountCredited', 'AccountDebited', 'BalanceAdjusted', 'StaffTransactionPosted', 'TransactionReversed'];

export function isMoneyEvent(event: BankEvent): event is MoneyEvent {
  return (
    event.type === 'AccountCredited' ||
    event.type === 'AccountDebited' ||
    event.type === 'BalanceAdjusted' ||
    event.type === 'StaffTransactionPosted' ||
    event.type === 'TransactionReversed'
  );
}

/** +amount for a credit, −amount for a debit. */
export function signedAmount(event: MoneyEvent): number {
  return event.data.direction === 'credit' ? event.data.amountCents : -event.data.amountCents;
}

// ---------------------------------------------------------------------------------------------------------------
// evolve

function applyMoney(state: OpenAccountState, event: MoneyEvent): OpenAccountState {
  const { data } = event;
  state.recorded.add(data.transactionId);
  if (data.status === 'pending') state.pending.set(data.transactionId, { transferId: data.transferId ?? null });
  if (event.type === 'TransactionReversed') {
    state.final.set(data.transactionId, 'reversal');
    if (state.recorded.has(event.data.reversedTransactionId)) state.final.set(event.data.reversedTransactionId, 'reversed');
  }
  state.balances[data.account] += signedAmount(event);
  return state;
}

/**
 * Fold step, O(1): updates an opened state in place (see decider.ts). Balances move by every money event, whatever
 * its status (a pending debit holds the funds).
 */
export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  if (event.type === 'AccountOpened') {
    return state.status === 'unopened' ? openAccountState(event.data.userId, event.data.accountNumber) : state;
  }
  if (state.status === 'unopened') return state;
  switch (event.type) {
    case 'AccountCredited':
    case 'AccountDebited':
    case 'BalanceAdjusted':
    case 'StaffTransactionPosted':
    case 'TransactionReversed':
      return applyMoney(state, event);
    case 'TransactionStatusChanged':
      if ((state.pending.delete(event.data.transactionId) || event.data.previousStatus === 'completed') && event.data.status === 'failed') {
        state.final.set(event.data.transactionId, 'failed');
      }
      return state;
    case 'AccountClosed':
      state.status = 'closed';
      return state;
    default:
      return assertNever(event);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// decide

function event<K extends AccountEventType>(type: K, data: EventOf<K>['data']): EventOf<K> {
  return { type, data } as EventOf<K>;
}

function requireOpened(state: AccountState): OpenAccountState {
  if (state.status === 'unopened') refuse('not_found', 'Account not found');
  return state;
}

function requireOpen(state: AccountState): OpenAccountState {
  const account = requireOpened(state);
  if (account.status === 'closed') refuse('closed');
  return account;
}

function assertAmount(amountCents: number): void {
  if (!Number.isSafeInteger(amountCents) || amountCents < 1 || amountCents > MAX_AMOUNT_CENTS) refuse('invalid_amount');
}

/** The balance after moving `amountCents` in `direction`; refuses below zero or above MAX_BALANCE_CENTS. */
function balanceAfter(state: OpenAccountState, account: AccountKind, direction: Direction, amountCents: number): number {
  const current = state.balances[account];
  const next = direction === 'credit' ? current + amountCents : current - amountCents;
  if (next < 0) refuse('insufficient_balance');
  if (next > MAX_BALANCE_CENTS) refuse('balance_limit');
  return next;
}

/** The completed credit of a transfer's money: the payee's credit, or (with `refundOf`) the payer's refund. */
function transferCredit(
  account: OpenAccountState,
  command: CreditForTransfer | RefundTransfer,
  refund: { refundOf?: string; clearing?: RefundTransfer['clearing'] } = {},
): AccountEvent {
  assertAmount(command.amountCents);
  return event('AccountCredited', {
    transactionId: command.transactionId,
    account: command.account,
    amountCents: command.amountCents,
    direction: 'credit',
    description: command.description,
    transferId: command.transferId,
    status: 'completed',
    occurredAt: command.now,
    balanceAfterCents: balanceAfter(account, command.account, 'credit', command.amountCents),
    businessDate: businessDateOf(command),
    ...refund,
  });
}

function present(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}

/** YYYY-MM-DD → that day 00:00 UTC; an ISO instant → normalised; anything else undefined. */
function instantOf(date: string): string | undefined {
  const trimmed = date.trim();
  if (isCalendarDate(trimmed)) return `${trimmed}T00:00:00.000Z`;
  if (!/^\d{4}-\d{2}-\d{2}T/.test(trimmed)) return undefined;
  const time = new Date(trimmed);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

function adjustBalances(command: AdjustBalances, state: OpenAccountState): AccountEvent[] {
  const events: AccountEvent[] = [];
  const targets: [AccountKind, number][] = [
    ['savings', command.savingsCents],
    ['checking', command.checkingCents],
  ];
  for (const [, newCents] of targets) {
    if (!Number.isSafeInteger(newCents)) refuse('invalid_amount');
    if (newCents < 0) refuse('negative_balance');
    if (newCents > MAX_BALANCE_CENTS) refuse('balance_limit');
  }
  const reason = present(command.reason) ? command.reason.trim() : null;
  for (const [account, newCents] of targets) {
    const transactionId = command.transactionIds[account];
    const previousCents = state.balances[account];
    if (newCents === previousCents || state.recorded.has(transactionId)) continue;
    events.push(
      event('BalanceAdjusted', {
        transactionId,
        account,
        amountCents: Math.abs(newCents - previousCents),
        direction: newCents > previousCents ? 'credit' : 'debit',
        description: reason ?? 'Balance adjustment',
        status: 'completed',
        occurredAt: command.now,
        balanceAfterCents: newCents,
        businessDate: businessDateOf(command),
        adminId: command.adminId,
        reason,
        previousCents,
        newCents,
      }),
    );
  }
  return events;
}

function postStaffTransaction(command: PostStaffTransaction, state: OpenAccountState): AccountEvent[] {
  const { amountCents, direction, date, description } = command;
  if (amountCents === undefined || direction === undefined || !present(date) || !present(description)) refuse('all_fields_required');
  assertAmount(amountCents);
  const occurredAt = instantOf(date);
  if (occurredAt === undefined) refuse('invalid_date');
  return [
    event('StaffTransactionPosted', {
      transactionId: command.transactionId,
      account: command.account,
      amountCents,
      direction,
      description: description.trim(),
      status: 'completed',
      occurredAt,
      balanceAfterCents: balanceAfter(state, command.account, direction, amountCents),
      businessDate: businessDateOf(command),
      adminId: command.adminId,
      postedAt: command.now,
      ...(present(command.reason) ? { reason: command.reason.trim() } : {}),
    }),
  ];
}

function reverseTransaction(command: ReverseTransaction, state: OpenAccountState): AccountEvent[] {
  const { original } = command;
  if (!state.recorded.has(command.reversedTransactionId)) refuse('not_found', 'Transaction not found');
  const final = state.final.get(command.reversedTransactionId);
  if (final === 'reversal') refuse('reversal_not_reversible');
  if (final === 'reversed') refuse('already_reversed');
  if (final === 'failed' || state.pending.has(command.reversedTransactionId)) refuse('transaction_not_reversible');
  const direction: Direction = original.direction === 'credit' ? 'debit' : 'credit';
  return [
    event('TransactionReversed', {
      transactionId: command.transactionId,
      account: original.account,
      amountCents: original.amountCents,
      direction,
      description: `Reversal: ${original.description}`,
      ...(original.transferId === null ? {} : { transferId: original.transferId }),
      status: 'completed',
      occurredAt: command.now,
      balanceAfterCents: balanceAfter(state, original.account, direction, original.amountCents),
      businessDate: businessDateOf(command),
      reversedTransactionId: command.reversedTransactionId,
      adminId: command.adminId,
    }),
  ];
}

/**
 * Decides an account command. Throws DomainError when refused ('You do not have enough balance' whenever a balance
 * would go below zero); returns [] when the transactionId is already recorded or nothing changes.
 */
export function decideAccount(command: AccountCommand, state: AccountState): AccountEvent[] {
  switch (command.type) {
    case 'OpenAccount':
      if (state.status !== 'unopened') refuse('already_exists', 'Account already opened');
      if (!isAccountNumber(command.accountNumber)) refuse('invalid_account_number');
      return [event('AccountOpened', { userId: command.userId, accountNumber: command.accountNumber, openedAt: command.now })];

    case 'DebitForTransfer': {
      const account = requireOpen(state);
      if (account.recorded.has(command.transactionId)) return [];
      assertAmount(command.amountCents);
      return [
        event('AccountDebited', {
          transactionId: command.transactionId,
          account: command.account,
          amountCents: command.amountCents,
          direction: 'debit',
          description: command.description,
          transferId: command.transferId,
          status: 'pending',
          occurredAt: command.now,
          balanceAfterCents: balanceAfter(account, command.account, 'debit', command.amountCents),
          businessDate: businessDateOf(command),
          ...(command.intent === undefined ? {} : { intent: command.intent }),
        }),
      ];
    }

    case 'CreditForTransfer': {
      const opened = requireOpened(state);
      if (opened.recorded.has(command.transactionId)) return [];
      const account = requireOpen(state);
      return [transferCredit(account, command)];
    }

    case 'CreditFromAch': {
      const opened = requireOpened(state);
      if (opened.recorded.has(command.transactionId)) return [];
      const account = requireOpen(state);
      assertAmount(command.amountCents);
      return [
        event('AccountCredited', {
          transactionId: command.transactionId,
          account: command.account,
          amountCents: command.amountCents,
          direction: 'credit',
          description: command.description,
          status: 'completed',
          occurredAt: command.now,
          balanceAfterCents: balanceAfter(account, command.account, 'credit', command.amountCents),
          businessDate: businessDateOf(command),
          achTraceNumber: command.traceNumber,
        }),
      ];
    }

    case 'RefundTransfer': {
      const account = requireOpened(state);
      if (account.recorded.has(command.transactionId)) return [];
      return [transferCredit(account, command, { refundOf: command.refundOf, ...(command.clearing === undefined ? {} : { clearing: command.clearing }) })];
    }

    case 'SetTransactionStatus': {
      const account = requireOpened(state);
      const status = transactionStatusOf(account, command.transactionId);
      if (status === undefined) refuse('not_found', 'Transaction not found');
      if (status === command.status) return [];
      const returnedAfterSettlement = command.achReturn === true && status === 'completed' && command.status === 'failed';
      if (status !== 'pending' && !returnedAfterSettlement) refuse('transaction_final');
      const transferId = account.pending.get(command.transactionId)?.transferId ?? null;
      return [
        event('TransactionStatusChanged', {
          transactionId: command.transactionId,
          status: command.status,
          previousStatus: returnedAfterSettlement ? 'completed' : 'pending',
          ...(transferId === null ? {} : { transferId }),
          occurredAt: command.now,
        }),
      ];
    }

    case 'AdjustBalances':
      return adjustBalances(command, requireOpen(state));

    case 'PostStaffTransaction': {
      const account = requireOpen(state);
      if (account.recorded.has(command.transactionId)) return [];
      return postStaffTransaction(command, account);
    }

    case 'ReverseTransaction': {
      const account = requireOpen(state);
      if (account.recorded.has(command.transactionId)) return [];
      return reverseTransaction(command, account);
    }

    case 'PayInterest': {
      const account = requireOpened(state);
      if (account.recorded.has(command.transactionId)) return [];
      assertAmount(command.amountCents);
      return [
        event('AccountCredited', {
          transactionId: command.transactionId,
          account: command.account,
          amountCents: command.amountCents,
          direction: 'credit',
          description: INTEREST_DESCRIPTION,
          status: 'completed',
          occurredAt: command.now,
          balanceAfterCents: balanceAfter(account, command.account, 'credit', command.amountCents),
          businessDate: command.businessDate,
          interest: { month: command.month, accruedUnits: command.accruedUnits, carryUnits: command.carryUnits },
        }),
      ];
    }

    case 'CloseAccount': {
      const account = requireOpened(state);
      if (account.status === 'closed') return [];
      return [event('AccountClosed', { adminId: command.adminId, closedAt: command.now })];
    }

    default:
      return assertNever(command);
  }
}

export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  name: 'account',
  stateVersion: 2,
  initialState: initialAccountState,
  evolve: evolveAccount,
  decide: decideAccount,
  snapshot: accountSnapshot,
  fork: forkAccountState,
};
