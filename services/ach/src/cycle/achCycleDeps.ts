import type { CommandHandler } from '@bank/commands';
import { achCycleDecider, bankIdentity, streams, type AchCycleCommand, type AchCycleState, type AchFileSettings } from '@bank/domain';
import type { Logger } from '@bank/platform';
import type pg from 'pg';

/** What the ACH cycle's operations need: the command handler, the read models (recipients), the bank's file settings. */
export interface AchCycleDeps {
  readonly commands: CommandHandler;
  /** rm.users, for an incoming entry's account number (numbers from before reservations). */
  readonly pool: pg.Pool;
  readonly settings: AchFileSettings;
  /** The open business date (the books' calendar). */
  readonly businessDate: () => Promise<string>;
  readonly now?: () => Date;
  readonly logger?: Logger;
}

/** The Federal Reserve's ACH operator as the files' immediate destination. */
export const FED_ACH_ROUTING_NUMBER = '011000015';

/** The bank's file settings from its routing number (BANK_ROUTING_NUMBER). */
export function achFileSettingsOf(bankRoutingNumber: string): AchFileSettings {
  return {
    bankRoutingNumber,
    bankName: bankIdentity.name,
    destinationRoutingNumber: FED_ACH_ROUTING_NUMBER,
    destinationName: 'Federal Reserve Bank',
    companyIdentification: `1${bankRoutingNumber}`,
    entryDescription: 'TRANSFER',
  };
}

export function nowOf(deps: Pick<AchCycleDeps, 'now'>): string {
  return (deps.now?.() ?? new Date()).toISOString();
}

/** One command on the achFiles stream, under a command id that makes a retry append nothing new. */
export async function onAchStream(deps: Pick<AchCycleDeps, 'commands'>, commandId: string, command: AchCycleCommand) {
  return deps.commands.execute({
    decider: achCycleDecider,
    streamId: streams.achFiles(),
    decide: (state) => achCycleDecider.decide(command, state),
    context: { commandId, metadata: { actorRole: 'system', correlationId: commandId } },
    commandType: command.type,
  });
}

/** The stream's state, up to date with the store; `view` must copy what it keeps. */
export function readAchCycle<V>(deps: Pick<AchCycleDeps, 'commands'>, view: (state: AchCycleState) => V): Promise<V> {
  return deps.commands.read(achCycleDecider, streams.achFiles(), (state) => view(state), { fresh: true });
}
