import { accountDecider, customerDecider, isRegistered, streams } from '@bank/domain';
import type { AppDeps } from '../../appDeps';
import { loadState } from '../../commands/runCommand';
import { NotFoundError } from '../../http/httpErrors';
import { presentCustomerState } from './presentUser';
import { findUserById } from './userQueries';
import type { UserJson } from './userShape';

export const USER_NOT_FOUND_MESSAGE = 'User not found';

/**
 * The user as the answer to a command shows it: from the read model (the command has waited for the projector);
 * should the projector still lag (`stale`), from the user's own events, so an answer never shows a stale user.
 */
export async function userAfterCommand(deps: Pick<AppDeps, 'pool' | 'commands'>, userId: string, stale: boolean): Promise<UserJson> {
  if (!stale) {
    const user = await findUserById(deps.pool, userId);
    if (user) return user;
  }
  const [customer, balances] = await Promise.all([
    loadState(deps, customerDecider, streams.customer(userId)),
    deps.commands.read(accountDecider, streams.account(userId), (state) => (state.status === 'unopened' ? undefined : { ...state.balances })),
  ]);
  if (!isRegistered(customer.state)) throw new NotFoundError(USER_NOT_FOUND_MESSAGE);
  return presentCustomerState(customer.state, balances);
}
