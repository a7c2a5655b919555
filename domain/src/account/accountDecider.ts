import type { Decider } from '../decider';
import { assertNever } from '../decider';
import { refuse } from '../domainError';
import type { BankEvent, BankEventType, EventOf, EventTypeOfStream } from '../events/eventSchemas';
import { eventTypesOfStream } from '../events/eventSchemas';
import { isCalendarDate } from '../calendar';
import { MAX_AMOUNT_CENTS, MAX_BALANCE_CENTS } from '../money';
import type { AccountKind, Direction } from '../primitives';
import { isAccountNumber } from '../primitives';
import type { AccountCommand, AdjustBalances, PostStaffTransaction, ReverseTransaction } from './accountCommands';
import type { AccountState, OpenAccountState, TransactionKind, TransactionRecord } from './accountState';
import { initialAccountState } from './accountState';

export type AccountEventType = EventTypeOfStream<'account'>;
export type AccountEvent = Extract<BankEvent, { type: AccountEventType }>;
/** The account events that move a balance. */
export type MoneyEvent = EventOf<'AccountCredited' | 'AccountDebited' | 'BalanceAdjusted' | 'StaffTransactionPosted' | 'TransactionReversed'>;

const accountEventTypes: ReadonlySet<BankEventType> = new Set(eventTypesOfStream('account'));
export function isAccountEvent(event: BankEvent): event is AccountEvent {
  return accountEventTypes.has(event.type);
}

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

function kindOf(event: MoneyEvent): TransactionKind {
  switch (event.type) {
    case 'AccountCredited':
      return event.data.refundOf === undefined ? 'transfer_credit' : 'refund';
    case 'AccountDebited':
      return 'transfer_debit';
    case 'BalanceAdjusted':
      return 'adjustment';
    case 'StaffTransactionPosted':
      return 'staff';
    case 'TransactionReversed':
      return 'reversal';
    default:
      return assertNever(event);
  }
}

function recordOf(event: MoneyEvent): TransactionRecord {
  const { data } = event;
  return {
    transactionId: data.transactionId,
    kind: kindOf(event),
    account: data.account,
    direction: data.direction,
    amountCents: data.amountCents,
    description: data.description,
    status: data.status,
    occurredAt: data.occurredAt,
    balanceAfterCents: data.balanceAfterCents,
    transferId: data.transferId ?? null,
    reversedBy: null,
    reverses: event.type === 'TransactionReversed' ? event.data.reversedTransactionId : null,
    adminId: 'adminId' in data ? data.adminId : null,
  };
}

function applyMoney(state: OpenAccountState, event: MoneyEvent): OpenAccountState {
  const record = recordOf(event);
  const transactions: Record<string, TransactionRecord> = { ...state.transactions, [record.transactionId]: record };
  if (event.type === 'TransactionReversed') {
    const original = transactions[event.data.reversedTransactionId];
    if (original) transactions[original.transactionId] = { ...original, reversedBy: record.transactionId };
  }
  const balances = { ...state.balances, [record.account]: state.balances[record.account] + signedAmount(event) };
  return { ...state, balances, transactions };
}

/** Pure fold step. Balances move by every money event, whatever its status (a pending debit holds the funds). */
export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  if (event.type === 'AccountOpened') {
    return { status: 'open', userId: event.data.userId, accountNumber: event.data.accountNumber, balances: { savings: 0, checking: 0 }, transactions: {} };
  }
  if (state.status === 'unopened') return state;
  switch (event.type) {
    case 'AccountCredited':
    case 'AccountDebited':
    case 'BalanceAdjusted':
    case 'StaffTransactionPosted':
    case 'TransactionReversed':
      return applyMoney(state, event);
    case 'TransactionStatusChanged': {
      const record = state.transactions[event.data.transactionId];
      if (!record) return state;
      return { ...state, transactions: { ...state.transactions, [record.transactionId]: { ...record, status: event.data.status } } };
    }
    case 'AccountClosed':
      return { ...state, status: 'closed' };
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
    if (newCents === previousCents || state.transactions[transactionId]) continue;
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
      adminId: command.adminId,
      postedAt: command.now,
    }),
  ];
}

function reverseTransaction(command: ReverseTransaction, state: OpenAccountState): AccountEvent[] {
  const original = state.transactions[command.reversedTransactionId];
  if (!original) refuse('not_found', 'Transaction not found');
  if (original.kind === 'reversal') refuse('reversal_not_reversible');
  if (original.reversedBy !== null) refuse('already_reversed');
  if (original.status !== 'completed') refuse('transaction_not_reversible');
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
      reversedTransactionId: original.transactionId,
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
      if (account.transactions[command.transactionId]) return [];
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
        }),
      ];
    }

    case 'CreditForTransfer': {
      const opened = requireOpened(state);
      if (opened.transactions[command.transactionId]) return [];
      const account = requireOpen(state);
      assertAmount(command.amountCents);
      return [
        event('AccountCredited', {
          transactionId: command.transactionId,
          account: command.account,
          amountCents: command.amountCents,
          direction: 'credit',
          description: command.description,
          transferId: command.transferId,
          status: 'completed',
          occurredAt: command.now,
          balanceAfterCents: balanceAfter(account, command.account, 'credit', command.amountCents),
        }),
      ];
    }

    case 'RefundTransfer': {
      const account = requireOpened(state);
      if (account.transactions[command.transactionId]) return [];
      assertAmount(command.amountCents);
      return [
        event('AccountCredited', {
          transactionId: command.transactionId,
          account: command.account,
          amountCents: command.amountCents,
          direction: 'credit',
          description: command.description,
          transferId: command.transferId,
          status: 'completed',
          occurredAt: command.now,
          balanceAfterCents: balanceAfter(account, command.account, 'credit', command.amountCents),
          refundOf: command.refundOf,
        }),
      ];
    }

    case 'SetTransactionStatus': {
      const account = requireOpened(state);
      const record = account.transactions[command.transactionId];
      if (!record) refuse('not_found', 'Transaction not found');
      if (record.status === command.status) return [];
      if (record.status !== 'pending') refuse('transaction_final');
      return [
        event('TransactionStatusChanged', {
          transactionId: record.transactionId,
          status: command.status,
          previousStatus: 'pending',
          ...(record.transferId === null ? {} : { transferId: record.transferId }),
          occurredAt: command.now,
        }),
      ];
    }

    case 'AdjustBalances':
      return adjustBalances(command, requireOpen(state));

    case 'PostStaffTransaction': {
      const account = requireOpen(state);
      if (account.transactions[command.transactionId]) return [];
      return postStaffTransaction(command, account);
    }

    case 'ReverseTransaction': {
      const account = requireOpen(state);
      if (account.transactions[command.transactionId]) return [];
      return reverseTransaction(command, account);
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
  initialState: initialAccountState,
  evolve: evolveAccount,
  decide: decideAccount,
};
