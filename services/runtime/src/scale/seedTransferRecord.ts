/**
 * Transfers of a generated bank as the transfer process leaves them (seedBank.ts writes them): the process's own
 * account commands and record commands of each step, from the domain's transferStepActions.
 */
import type { KeyringKey } from '@bank/platform';
import {
  decideTransferRecord,
  streams,
  transferDecider,
  transferStepActions,
  type AccountCommand,
  type TransferAction,
  type TransferCommand,
  type TransferEvent,
  type TransferRequest,
  type TransferState,
} from '@bank/domain';
import { transferStepContext } from '@bank/transfers';
import type { SeedCalendar } from './seedCalendar';
import { SeedStream } from './seedStream';
import { SEED_SETTLES_AFTER_MS } from './seedTransfers';

/** The process's own account actions of a step (transferStepActions), by the stream they go to. */
export function payerOrPayeeCommand(actions: readonly TransferAction[], stream: 'payer' | 'payee'): AccountCommand {
  const action = actions.find((candidate) => candidate.stream === stream);
  if (!action || action.stream === 'transfer' || action.stream === 'ach') throw new TypeError(`The step has no ${stream} action`);
  return action.command;
}

function recordCommands(actions: readonly TransferAction[]): readonly TransferCommand[] {
  const action = actions.find((candidate) => candidate.stream === 'transfer');
  if (!action || action.stream !== 'transfer') throw new TypeError('The step has no transfer record action');
  return action.commands;
}

/** Where each of the process's actions stands in its step (transferStepContext's index). */
export const CREDIT = { payee: 0, payer: 1, record: 2 } as const;
export const SETTLE = { record: 0, payer: 1 } as const;

/**
 * The record of a transfer as the transfer process leaves it: one append per step, with the process's own command ids
 * (transferStepContext), so the process run again over it appends nothing. Internal: TransferRequested,
 * TransferDebited and TransferCredited in the credit step's one append; external: debited, then settled an hour later
 * (as the COB settles an ACH entry; the generated bank writes no ACH file).
 */
export function seedTransferRecord(request: TransferRequest, chainKey: KeyringKey | undefined, calendar: SeedCalendar): SeedStream<TransferCommand, TransferEvent, TransferState> {
  const record = new SeedStream(streams.transfer(request.transferId), transferDecider, chainKey, calendar);
  const at = request.requestedAt;
  if (request.internal) {
    const commands = recordCommands(transferStepActions('credit', request, at));
    record.decide((state) => decideTransferRecord(commands, state), transferStepContext(request.transferId, 'credit', CREDIT.record), at);
  } else {
    const sent = recordCommands(transferStepActions('send', request, at));
    record.decide((state) => decideTransferRecord(sent, state), transferStepContext(request.transferId, 'send', 0), at);
    const settledAt = new Date(Date.parse(at) + SEED_SETTLES_AFTER_MS).toISOString();
    const settled = recordCommands(transferStepActions('settle', request, settledAt));
    record.decide((state) => decideTransferRecord(settled, state), transferStepContext(request.transferId, 'settle', SETTLE.record), settledAt);
  }
  return record;
}
