import { customerDecider, normalizeEmail, requireActiveCustomer, streams, type Customer, type CustomerCommand } from '@bank/domain';
import type { Position } from '@bank/eventstore';
import type { AppDeps } from '../../appDeps';
import { releaseEmail, reserveEmail } from '../../commands/reservations';
import { loadState, runCommand, type CommandScope } from '../../commands/runCommand';
import { latestPosition } from '../../http/sendCommandResult';

type Deps = Pick<AppDeps, 'commands' | 'store' | 'metrics' | 'now' | 'logger'>;

/**
 * Runs a customer command that may change the e-mail (the customer's ChangeProfile, the admin's AdminEditCustomer):
 * decided first on the current state (refusals cost nothing), then the new address is reserved (409 when taken),
 * the command appended, and the old address released. A refused command releases the new address again.
 */
export async function changeCustomerProfile(
  deps: Deps,
  scope: CommandScope,
  userId: string,
  build: (customer: Customer) => CustomerCommand & { readonly email?: string | undefined },
): Promise<Position | undefined> {
  const streamId = streams.customer(userId);
  const before = requireActiveCustomer((await loadState(deps, customerDecider, streamId)).state);
  const command = build(before);
  customerDecider.decide(command, before);
  const newEmail = command.email === undefined ? undefined : normalizeEmail(command.email);
  const emailChanges = newEmail !== undefined && newEmail !== before.email;
  const positions: (Position | undefined)[] = [];
  if (emailChanges) positions.push(await reserveEmail(deps, scope, newEmail, userId));
  let result;
  try {
    result = await runCommand(deps, scope, { decider: customerDecider, streamId, command: (state) => build(requireActiveCustomer(state)) });
  } catch (error) {
    if (emailChanges) await releaseEmail(deps, scope, newEmail, userId).catch((release: unknown) => deps.logger.warn({ err: release }, 'Could not release an e-mail'));
    throw error;
  }
  positions.push(result.position);
  if (emailChanges && result.events.some((event) => event.type === 'ProfileChanged')) {
    positions.push(await releaseEmail(deps, scope, before.email, userId));
  }
  return latestPosition(...positions);
}
