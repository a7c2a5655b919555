/**
 * Random whole-bank histories for the ledger's property tests (not exported from the package): a few customers,
 * internal and external transfers run step by step through the transfer process (credited, sent, settled, failed,
 * refunded), admins' balance edits, postings and deletions, and closed accounts, every command decided by the
 * bank's own deciders. The result is the log, in order, with stream ids.
 */
import fc from 'fast-check';
import type { AccountCommand } from '../account/accountCommands';
import type { AccountEvent } from '../account/accountDecider';
import { decideAccount, evolveAccount } from '../account/accountDecider';
import type { AccountState } from '../account/accountState';
import { initialAccountState } from '../account/accountState';
import { isDomainError } from '../domainError';
import type { BankEvent } from '../events/eventSchemas';
import type { AccountKind } from '../primitives';
import type { TransferEvent, TransferRequest, TransferState } from '../transfer/transferDecider';
import { decideTransferRecord, evolveTransfer, initialTransferState } from '../transfer/transferDecider';
import { isPayeeGone, nextTransferStep, transferRequestOf, transferStepActions } from '../transfer/transferProcessModel';
import { ADMIN_ID, NOW, uuid } from './fixtures';

export const CUSTOMERS = 4;

export interface LoggedEvent {
  readonly position: number;
  readonly streamId: string;
  readonly recordedAt: string;
  readonly event: BankEvent;
}

export type BankRecipe =
  | { readonly kind: 'transfer'; readonly payer: number; readonly payee: number; readonly from: AccountKind; readonly to: AccountKind; readonly amount: number; readonly external: boolean }
  | { readonly kind: 'step'; readonly pick: number; readonly fail: boolean }
  | { readonly kind: 'staff'; readonly customer: number; readonly account: AccountKind; readonly direction: 'credit' | 'debit'; readonly amount: number }
  | { readonly kind: 'adjust'; readonly customer: number; readonly savings: number; readonly checking: number }
  | { readonly kind: 'reverse'; readonly customer: number; readonly pick: number }
  | { readonly kind: 'close'; readonly customer: number };

const customer = fc.nat({ max: CUSTOMERS - 1 });
const kind = fc.constantFrom<AccountKind>('savings', 'checking');
const amount = fc.integer({ min: 100, max: 50_000 });

export const bankRecipe: fc.Arbitrary<BankRecipe> = fc.oneof(
  { weight: 30, arbitrary: fc.record({ kind: fc.constant('transfer' as const), payer: customer, payee: customer, from: kind, to: kind, amount, external: fc.boolean() }) },
  { weight: 40, arbitrary: fc.record({ kind: fc.constant('step' as const), pick: fc.nat(), fail: fc.boolean() }) },
  { weight: 15, arbitrary: fc.record({ kind: fc.constant('staff' as const), customer, account: kind, direction: fc.constantFrom('credit' as const, 'debit' as const), amount }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('adjust' as const), customer, savings: fc.nat({ max: 100_000 }), checking: fc.nat({ max: 100_000 }) }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('reverse' as const), customer, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), customer }) },
);

interface OpenTransfer {
  readonly request: TransferRequest;
  state: TransferState;
}

interface Original {
  readonly transactionId: string;
  readonly account: AccountKind;
  readonly direction: 'credit' | 'debit';
  readonly amountCents: number;
  readonly description: string;
  readonly transferId: string | null;
}

/** Runs the recipes against the deciders; refusals (not enough money, a final status…) record nothing. */
export function simulateBank(recipes: readonly BankRecipe[]): LoggedEvent[] {
  const log: LoggedEvent[] = [];
  const accounts: AccountState[] = [];
  const originals: Original[][] = [];
  const transfers: OpenTransfer[] = [];
  let n = 0;
  const now = (): string => new Date(Date.parse(NOW) + n * 3_600_000).toISOString();
  const userId = (index: number): string => uuid(100 + index);
  const indexOf = (id: string): number => Array.from({ length: CUSTOMERS }, (_, index) => userId(index)).indexOf(id);

  const record = (streamId: string, events: readonly BankEvent[]): void => {
    for (const event of events) log.push({ position: log.length + 1, streamId, recordedAt: now(), event });
  };
  const onAccount = (index: number, command: AccountCommand): AccountEvent[] => {
    const state = accounts[index] ?? initialAccountState;
    const events = decideAccount(command, state);
    let next = state;
    for (const event of events) {
      next = evolveAccount(next, event);
      if (event.type !== 'AccountOpened' && event.type !== 'AccountClosed' && event.type !== 'TransactionStatusChanged') {
        originals[index]?.push({ ...event.data, transferId: event.data.transferId ?? null });
      }
    }
    accounts[index] = next;
    record(`account-${userId(index)}`, events);
    return events;
  };
  const attempt = (run: () => void): void => {
    try {
      run();
    } catch (error) {
      if (!isDomainError(error)) throw error;
    }
  };

  for (let index = 0; index < CUSTOMERS; index += 1) {
    originals.push([]);
    onAccount(index, { type: 'OpenAccount', userId: userId(index), accountNumber: String(1_000_000_000 + index), now: now() });
    onAccount(index, { type: 'PostStaffTransaction', transactionId: uuid(200 + index), adminId: ADMIN_ID, account: 'savings', direction: 'credit', amountCents: 100_000, date: '2025-06-01', description: 'Opening deposit', now: now() });
  }

  const runStep = (transfer: OpenTransfer, fail: boolean): void => {
    const { request } = transfer;
    const next = nextTransferStep(transfer.state, request);
    if (next === 'done') return;
    const step = fail && (next === 'credit' || next === 'settle') ? 'fail' : next;
    const payeeIndex = request.payeeId === undefined ? -1 : indexOf(request.payeeId);
    const payerIndex = indexOf(request.payerId);
    for (const action of transferStepActions(step, request, now(), { reason: 'Declined', businessDate: now().slice(0, 10) })) {
      if (action.stream === 'transfer') {
        const events: TransferEvent[] = decideTransferRecord(action.commands, transfer.state);
        for (const event of events) transfer.state = evolveTransfer(transfer.state, event);
        record(`transfer-${request.transferId}`, events);
      } else if (action.stream === 'payee') {
        try {
          onAccount(payeeIndex, action.command);
        } catch (error) {
          if (isPayeeGone(error)) return runStep(transfer, true);
          throw error;
        }
      } else {
        onAccount(payerIndex, action.command);
      }
    }
  };

  for (const recipe of recipes) {
    n += 1;
    attempt(() => {
      switch (recipe.kind) {
        case 'transfer': {
          const external = recipe.external || (recipe.payer === recipe.payee && recipe.from === recipe.to);
          const transferId = uuid(10_000 + n);
          const events = onAccount(recipe.payer, {
            type: 'DebitForTransfer',
            transactionId: uuid(20_000 + n),
            transferId,
            account: recipe.from,
            amountCents: recipe.amount,
            description: 'Transfer',
            intent: {
              internal: !external,
              ...(external ? {} : { payeeId: userId(recipe.payee), creditTransactionId: uuid(30_000 + n) }),
              refundTransactionId: uuid(40_000 + n),
              accountNumber: '5555555555',
              bankName: 'Bank',
              routingNumber: '011000015',
              accountType: recipe.to,
              recipientName: 'Someone',
              description: '',
              requestedAt: now(),
            },
            now: now(),
          });
          const debit = events[0];
          const request = debit?.type === 'AccountDebited' ? transferRequestOf(userId(recipe.payer), debit.data) : undefined;
          if (request) transfers.push({ request, state: initialTransferState });
          return;
        }
        case 'step': {
          const open = transfers.filter((transfer) => nextTransferStep(transfer.state, transfer.request) !== 'done');
          const transfer = open[recipe.pick % Math.max(open.length, 1)];
          if (transfer) runStep(transfer, recipe.fail);
          return;
        }
        case 'staff':
          onAccount(recipe.customer, { type: 'PostStaffTransaction', transactionId: uuid(50_000 + n), adminId: ADMIN_ID, account: recipe.account, direction: recipe.direction, amountCents: recipe.amount, date: '2025-06-01', description: 'Staff posting', reason: 'Test', now: now() });
          return;
        case 'adjust':
          onAccount(recipe.customer, { type: 'AdjustBalances', adminId: ADMIN_ID, savingsCents: recipe.savings, checkingCents: recipe.checking, reason: 'Correction', transactionIds: { savings: uuid(60_000 + n), checking: uuid(70_000 + n) }, now: now() });
          return;
        case 'reverse': {
          const candidates = originals[recipe.customer] ?? [];
          const original = candidates[recipe.pick % Math.max(candidates.length, 1)];
          if (!original) return;
          onAccount(recipe.customer, { type: 'ReverseTransaction', transactionId: uuid(80_000 + n), reversedTransactionId: original.transactionId, original, adminId: ADMIN_ID, now: now() });
          return;
        }
        case 'close':
          onAccount(recipe.customer, { type: 'CloseAccount', adminId: ADMIN_ID, now: now() });
          return;
      }
    });
  }
  return log;
}
