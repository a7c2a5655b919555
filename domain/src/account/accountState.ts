import { OverlayMap, OverlaySet, type EditableMap, type GrowingSet } from '../overlay';
import type { AccountKind, Balances } from '../primitives';

/**
 * The write side's state of `account-<userId>`: only what the account's decisions need, in structures that grow in
 * place, so that folding one more event costs O(1) whatever the history (docs/architecture.md, "The write side at
 * scale"). The full history of transactions is the auditors' fold (accountHistory.ts) and the read models'.
 *
 *   balances          integer cents, never negative
 *   recorded          every transaction id on the account: a money command whose id is recorded is a no-op
 *   pending           transactions whose status can still change (a transfer's debit until it completes or fails)
 *   final             the recorded transactions a reversal must refuse: reversals themselves, reversed ones, failed ones
 */
export interface OpenAccountState {
  status: 'open' | 'closed';
  readonly userId: string;
  /** The number at opening (the current number lives on the customer stream). */
  readonly accountNumber: string;
  /** Integer cents, updated in place by evolve. Never negative. */
  readonly balances: { savings: number; checking: number };
  readonly recorded: GrowingSet<string>;
  /** Pending transaction id → the transfer it belongs to (null for none). */
  readonly pending: EditableMap<string, { readonly transferId: string | null }>;
  readonly final: EditableMap<string, FinalReason>;
}

/** Why a recorded transaction can no longer be reversed (besides being pending). */
export type FinalReason = 'reversal' | 'reversed' | 'failed';

export type AccountState = { readonly status: 'unopened' } | OpenAccountState;

export const initialAccountState: AccountState = Object.freeze({ status: 'unopened' as const });

/** A fresh open account (a new object: evolve updates it in place from then on). */
export function openAccountState(userId: string, accountNumber: string): OpenAccountState {
  return { status: 'open', userId, accountNumber, balances: { savings: 0, checking: 0 }, recorded: new Set(), pending: new Map(), final: new Map() };
}

/**
 * A state to decide and fold on speculatively without changing `state` (the command layer decides a batch of
 * commands on a fork and folds their events into the real state once they are stored). O(1).
 */
export function forkAccountState(state: AccountState): AccountState {
  if (state.status === 'unopened') return state;
  return {
    status: state.status,
    userId: state.userId,
    accountNumber: state.accountNumber,
    balances: { ...state.balances },
    recorded: new OverlaySet(state.recorded),
    pending: new OverlayMap(state.pending),
    final: new OverlayMap(state.final),
  };
}

/** The balance of one account kind, 0 before opening. */
export function balanceOf(state: AccountState, account: AccountKind): number {
  return state.status === 'unopened' ? 0 : state.balances[account];
}

/** Whether a transaction id is recorded on the account. */
export function hasTransaction(state: AccountState, transactionId: string): boolean {
  return state.status !== 'unopened' && state.recorded.has(transactionId);
}

/** The status of a recorded transaction as the write side knows it, undefined when not recorded. */
export function transactionStatusOf(state: AccountState, transactionId: string): 'pending' | 'completed' | 'failed' | undefined {
  if (state.status === 'unopened' || !state.recorded.has(transactionId)) return undefined;
  if (state.pending.has(transactionId)) return 'pending';
  return state.final.get(transactionId) === 'failed' ? 'failed' : 'completed';
}

/** The JSON form of a state for snapshots (accountSnapshot.encode / decode). */
interface EncodedAccount {
  readonly status: 'unopened' | 'open' | 'closed';
  readonly userId?: string;
  readonly accountNumber?: string;
  readonly balances?: Balances;
  readonly recorded?: string[];
  readonly pending?: Array<[string, string | null]>;
  readonly final?: Array<[string, FinalReason]>;
}

export const accountSnapshot = {
  encode(state: AccountState): EncodedAccount {
    if (state.status === 'unopened') return { status: 'unopened' };
    return {
      status: state.status,
      userId: state.userId,
      accountNumber: state.accountNumber,
      balances: { ...state.balances },
      recorded: [...state.recorded],
      pending: [...state.pending].map(([id, { transferId }]) => [id, transferId]),
      final: [...state.final],
    };
  },
  decode(json: unknown): AccountState {
    const encoded = json as EncodedAccount;
    if (encoded.status === 'unopened') return initialAccountState;
    if (!encoded.userId || !encoded.accountNumber || !encoded.balances || !encoded.recorded || !encoded.pending || !encoded.final) {
      throw new TypeError('Not an encoded account state');
    }
    return {
      status: encoded.status,
      userId: encoded.userId,
      accountNumber: encoded.accountNumber,
      balances: { savings: encoded.balances.savings, checking: encoded.balances.checking },
      recorded: new Set(encoded.recorded),
      pending: new Map(encoded.pending.map(([id, transferId]) => [id, { transferId }])),
      final: new Map(encoded.final),
    };
  },
};
