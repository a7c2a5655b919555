import type { CommandHandler } from '@bank/commands';
import { accountDecider, decideTransferRecord, isDomainError, streams, transferDecider, type AccountCommand, type TransferCommand, type TransferState } from '@bank/domain';

/** The ACH cycle's commands on the transfer and account streams, each under an id that makes a retry a no-op. */

function context(commandId: string, correlationId: string) {
  return { commandId, metadata: { actorRole: 'system' as const, correlationId } };
}

export async function onTransfer(commands: CommandHandler, transferId: string, commandId: string, command: TransferCommand): Promise<TransferState> {
  const result = await commands.execute({
    decider: transferDecider,
    streamId: streams.transfer(transferId),
    decide: (state) => decideTransferRecord([command], state),
    context: context(commandId, transferId),
    commandType: command.type,
  });
  return result.state;
}

export async function onAccount(commands: CommandHandler, userId: string, commandId: string, command: AccountCommand, correlationId: string): Promise<void> {
  await commands.execute({
    decider: accountDecider,
    streamId: streams.account(userId),
    decide: (state) => accountDecider.decide(command, state),
    context: context(commandId, correlationId),
    commandType: command.type,
  });
}

export function readTransferRecord(commands: CommandHandler, transferId: string): Promise<TransferState> {
  return commands.read(transferDecider, streams.transfer(transferId), (state) => state, { fresh: true });
}

/** A refusal that says the outcome went the other way already (a return before the COB's settlement, …). */
export function isAlreadyDecided(error: unknown): boolean {
  return isDomainError(error) && (error.code === 'transaction_final' || error.code === 'transfer_failed' || error.code === 'transfer_completed');
}
