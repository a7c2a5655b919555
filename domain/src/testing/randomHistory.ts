/** Random account command sequences for the property tests (not exported from the package). */
import fc from 'fast-check';
import type { AccountCommand } from '../account/accountCommands';
import type { AccountEvent } from '../account/accountDecider';
import { accountDecider } from '../account/accountDecider';
import type { AccountState } from '../account/accountState';
import { isDomainError } from '../domainError';
import { ADMIN_ID, CUSTOMER_ID, NOW, uuid } from './fixtures';

const kind = fc.constantFrom('savings' as const, 'checking' as const);
const amount = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 5_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 100_000_000 }) });
/** An index into the ids used so far (resolved when the command is built), so ids repeat and retries happen. */
const pick = fc.nat();

export type CommandRecipe =
  | { readonly kind: 'debit'; readonly account: 'savings' | 'checking'; readonly amount: number; readonly reuse: number | null }
  | { readonly kind: 'credit'; readonly account: 'savings' | 'checking'; readonly amount: number }
  | { readonly kind: 'refund'; readonly of: number }
  | { readonly kind: 'staff'; readonly account: 'savings' | 'checking'; readonly direction: 'credit' | 'debit'; readonly amount: number }
  | { readonly kind: 'adjust'; readonly savings: number; readonly checking: number }
  | { readonly kind: 'reverse'; readonly of: number; readonly reuse: number | null }
  | { readonly kind: 'status'; readonly of: number; readonly status: 'completed' | 'failed' }
  | { readonly kind: 'close' };

export const commandRecipe: fc.Arbitrary<CommandRecipe> = fc.oneof(
  { weight: 60, arbitrary: fc.record({ kind: fc.constant('debit' as const), account: kind, amount, reuse: fc.option(pick, { freq: 5 }) }) },
  { weight: 40, arbitrary: fc.record({ kind: fc.constant('credit' as const), account: kind, amount }) },
  { weight: 10, arbitrary: fc.record({ kind: fc.constant('refund' as const), of: pick }) },
  { weight: 40, arbitrary: fc.record({ kind: fc.constant('staff' as const), account: kind, direction: fc.constantFrom('credit' as const, 'debit' as const), amount }) },
  { weight: 10, arbitrary: fc.record({ kind: fc.constant('adjust' as const), savings: fc.nat({ max: 200_000 }), checking: fc.nat({ max: 200_000 }) }) },
  { weight: 30, arbitrary: fc.record({ kind: fc.constant('reverse' as const), of: pick, reuse: fc.option(pick, { freq: 5 }) }) },
  { weight: 40, arbitrary: fc.record({ kind: fc.constant('status' as const), of: pick, status: fc.constantFrom('completed' as const, 'failed' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const) }) },
);

/** Instant of the n-th command: one minute apart. */
export function instant(n: number): string {
  return new Date(Date.parse(NOW) + n * 60_000).toISOString();
}

type Details = Extract<AccountCommand, { type: 'ReverseTransaction' }>['original'];
const UNKNOWN: Details = { account: 'savings', direction: 'credit', amountCents: 1, description: 'unknown', transferId: null };

function buildCommand(recipe: CommandRecipe, n: number, ids: string[], debitIds: string[], details: Map<string, Details>): AccountCommand {
  const fresh = uuid(10_000 + n);
  const existing = (index: number): string => ids[index % Math.max(ids.length, 1)] ?? fresh;
  const debit = (index: number): string => debitIds[index % Math.max(debitIds.length, 1)] ?? fresh;
  const now = instant(n);
  const transferId = uuid(20_000 + n);
  switch (recipe.kind) {
    case 'debit':
      return { type: 'DebitForTransfer', transactionId: recipe.reuse === null ? fresh : existing(recipe.reuse), transferId, account: recipe.account, amountCents: recipe.amount, description: 'Transfer', now };
    case 'credit':
      return { type: 'CreditForTransfer', transactionId: fresh, transferId, account: recipe.account, amountCents: recipe.amount, description: 'Transfer in', now };
    case 'refund':
      return { type: 'RefundTransfer', transactionId: fresh, transferId, refundOf: debit(recipe.of), account: 'savings', amountCents: 100, description: 'Refund', now };
    case 'staff':
      return { type: 'PostStaffTransaction', transactionId: fresh, adminId: ADMIN_ID, account: recipe.account, direction: recipe.direction, amountCents: recipe.amount, date: '2025-01-01', description: 'Staff', now };
    case 'adjust':
      return { type: 'AdjustBalances', adminId: ADMIN_ID, savingsCents: recipe.savings, checkingCents: recipe.checking, transactionIds: { savings: fresh, checking: uuid(30_000 + n) }, now };
    case 'reverse': {
      const reversedTransactionId = existing(recipe.of);
      const original = details.get(reversedTransactionId) ?? UNKNOWN;
      return { type: 'ReverseTransaction', transactionId: recipe.reuse === null ? fresh : existing(recipe.reuse), reversedTransactionId, original, adminId: ADMIN_ID, now };
    }
    case 'status':
      return { type: 'SetTransactionStatus', transactionId: recipe.of % 4 === 0 ? existing(recipe.of) : debit(recipe.of), status: recipe.status, now };
    case 'close':
      return { type: 'CloseAccount', adminId: ADMIN_ID, now };
  }
}

export interface History {
  readonly events: AccountEvent[];
  /** How many commands were refused (DomainError). */
  readonly refusals: number;
}

/** Runs recipes against a freshly opened account: refused commands are skipped, accepted ones appended. */
export function runAccountHistory(recipes: readonly CommandRecipe[], onEvent?: (state: AccountState, event: AccountEvent) => void): History {
  const events: AccountEvent[] = [];
  let state: AccountState = accountDecider.initialState;
  const append = (produced: AccountEvent[]) => {
    for (const event of produced) {
      state = accountDecider.evolve(state, event);
      events.push(event);
      onEvent?.(state, event);
    }
  };
  append(accountDecider.decide({ type: 'OpenAccount', userId: CUSTOMER_ID, accountNumber: '1234567890', now: NOW }, state));
  const ids: string[] = [];
  const debitIds: string[] = [];
  const details = new Map<string, Details>();
  let refusals = 0;
  recipes.forEach((recipe, index) => {
    const command = buildCommand(recipe, index + 1, ids, debitIds, details);
    try {
      const produced = accountDecider.decide(command, state);
      for (const event of produced) {
        if (event.type === 'TransactionStatusChanged' || !('transactionId' in event.data)) continue;
        ids.push(event.data.transactionId);
        if (event.type === 'AccountDebited') debitIds.push(event.data.transactionId);
        if ('amountCents' in event.data) {
          const { account, direction, amountCents, description, transferId } = event.data;
          details.set(event.data.transactionId, { account, direction, amountCents, description, transferId: transferId ?? null });
        }
      }
      append(produced);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      refusals += 1;
    }
  });
  return { events, refusals };
}
