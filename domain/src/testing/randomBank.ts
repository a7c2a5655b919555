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
import { decideAchCycle, evolveAchCycle, type AchCycleCommand } from '../ach/cycle/achCycleDecider';
import { initialAchCycleState, type AchCycleState } from '../ach/cycle/achCycleState';
import { returnPayerCommands, returnRecordCommand, settlementActions } from '../ach/cycle/achActions';
import { ACH_FILES_STREAM } from '../streams';

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
  | { readonly kind: 'close'; readonly customer: number }
  | { readonly kind: 'achFile' }
  | { readonly kind: 'achSettle' }
  | { readonly kind: 'achReturn'; readonly pick: number; readonly code: 'R01' | 'R03' }
  | { readonly kind: 'achIncoming'; readonly customer: number; readonly account: AccountKind; readonly amount: number; readonly unknown: boolean };

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
  { weight: 6, arbitrary: fc.constant({ kind: 'achFile' as const }) },
  { weight: 5, arbitrary: fc.constant({ kind: 'achSettle' as const }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('achReturn' as const), pick: fc.nat(), code: fc.constantFrom('R01' as const, 'R03' as const) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('achIncoming' as const), customer, account: kind, amount, unknown: fc.boolean() }) },
);

const BANK_ROUTING = '102000021';
const ACH_SETTINGS = {
  bankRoutingNumber: BANK_ROUTING,
  bankName: 'Summit Bank',
  destinationRoutingNumber: '011000015',
  destinationName: 'Federal Reserve Bank',
  companyIdentification: '1102000021',
  entryDescription: 'TRANSFER',
};
/** Not a digest: the simulation only needs 64 hex characters that follow the text. */
function fakeSha256(text: string): string {
  let hash = 0;
  for (let index = 0; index < text.length; index += 1) hash = (hash * 31 + text.charCodeAt(index)) >>> 0;
  return hash.toString(16).padStart(64, '0');
}

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
  let ach: AchCycleState = initialAchCycleState;
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
  const onAch = (command: AchCycleCommand): void => {
    const events = decideAchCycle(command, ach);
    for (const event of events) ach = evolveAchCycle(ach, event);
    record(ACH_FILES_STREAM, events);
  };
  const onTransfer = (transfer: OpenTransfer, commands: Parameters<typeof decideTransferRecord>[0]): void => {
    const events: TransferEvent[] = decideTransferRecord(commands, transfer.state);
    for (const event of events) transfer.state = evolveTransfer(transfer.state, event);
    record(`transfer-${transfer.request.transferId}`, events);
  };
  const byId = (transferId: string): OpenTransfer | undefined => transfers.find((transfer) => transfer.request.transferId === transferId);
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
    // An external transfer settles at the COB of its file's effective date (achSettle), never as a step.
    if (next === 'settle' && !request.internal) return;
    const step = fail && (next === 'credit' || next === 'settle') ? 'fail' : next;
    const payeeIndex = request.payeeId === undefined ? -1 : indexOf(request.payeeId);
    const payerIndex = indexOf(request.payerId);
    for (const action of transferStepActions(step, request, now(), { reason: 'Declined', businessDate: now().slice(0, 10) })) {
      if (action.stream === 'transfer') {
        onTransfer(transfer, action.commands);
      } else if (action.stream === 'ach') {
        onAch(action.command);
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
        case 'achFile': {
          const before = ach.fileCount;
          onAch({ type: 'BuildAchFile', fileId: uuid(90_000 + n), businessDate: now().slice(0, 10), settings: ACH_SETTINGS, sha256: fakeSha256, now: now() });
          if (ach.fileCount === before) return;
          const file = ach.files.get(uuid(90_000 + n));
          for (const trace of file?.traceNumbers ?? []) {
            const transfer = byId(ach.traces.get(trace)?.entry.transferId ?? '');
            if (transfer) attempt(() => onTransfer(transfer, [{ type: 'RecordSent', now: now() }]));
          }
          return;
        }
        case 'achSettle': {
          const due = [...ach.files].find(([, file]) => !file.settled);
          if (!due) return;
          const [fileId, file] = due;
          for (const trace of file.traceNumbers) {
            const transfer = byId(ach.traces.get(trace)?.entry.transferId ?? '');
            if (!transfer || transfer.state.phase === 'failed' || transfer.state.phase === 'refunded') continue;
            const actions = settlementActions(transfer.request, now(), '2099-12-31');
            onTransfer(transfer, [actions.transfer]);
            attempt(() => onAccount(indexOf(transfer.request.payerId), actions.payer));
          }
          onAch({ type: 'SettleAchFile', fileId, businessDate: '2099-12-31', now: now() });
          return;
        }
        case 'achReturn': {
          const traces = [...ach.traces].filter(([trace, traced]) => !traced.entry.returnOf && !ach.returned.has(trace));
          const picked = traces[recipe.pick % Math.max(traces.length, 1)];
          if (!picked) return;
          const [trace, traced] = picked;
          const transfer = byId(traced.entry.transferId);
          if (!transfer) return;
          onTransfer(transfer, [returnRecordCommand(recipe.code, now())]);
          const afterSettlement = transfer.state.phase !== 'none' && transfer.state.returnedAfterSettlement === true;
          for (const command of returnPayerCommands(transfer.request, recipe.code, afterSettlement, now(), now().slice(0, 10))) onAccount(indexOf(transfer.request.payerId), command);
          onAch({ type: 'RecordAchReturn', originalTraceNumber: trace, reasonCode: recipe.code, afterSettlement, businessDate: now().slice(0, 10), now: now() });
          return;
        }
        case 'achIncoming': {
          const traceNumber = `01100001${String(n).padStart(7, '0')}`;
          const transactionId = uuid(95_000 + n);
          const returnAs = (reasonCode: 'R02' | 'R03'): void =>
            onAch({
              type: 'RecordAchIncomingReturn',
              returnId: uuid(97_000 + n),
              traceNumber,
              reasonCode,
              amountCents: recipe.amount,
              routingNumber: '011000015',
              accountNumber: recipe.unknown ? '9999999999' : String(1_000_000_000 + recipe.customer),
              name: 'Payroll Inc',
              transactionCode: recipe.account === 'savings' ? 32 : 22,
              businessDate: now().slice(0, 10),
              now: now(),
            });
          if (recipe.unknown) return returnAs('R03');
          try {
            onAccount(recipe.customer, { type: 'CreditFromAch', transactionId, account: recipe.account, amountCents: recipe.amount, description: 'ACH credit: Payroll Inc', traceNumber, now: now() });
          } catch (error) {
            if (isDomainError(error) && error.code === 'closed') return returnAs('R02');
            throw error;
          }
          onAch({ type: 'RecordAchIncomingCredit', traceNumber, customerId: userId(recipe.customer), account: recipe.account, amountCents: recipe.amount, transactionId, businessDate: now().slice(0, 10), now: now() });
          return;
        }
      }
    });
  }
  return log;
}
