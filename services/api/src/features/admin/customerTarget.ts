import { customerDecider, isRegistered, streams, type Customer } from '@bank/domain';
import type { AppDeps } from '../../appDeps';
import { loadState } from '../../commands/runCommand';
import { NotFoundError } from '../../http/httpErrors';
import { USER_NOT_FOUND_MESSAGE } from '../users/currentUser';
import { isUuid } from '@bank/platform';

/**
 * The customer an admin route acts on, from the write model: 404 'User not found' for an unknown or malformed id,
 * a closed customer and staff (staff accounts are managed with `npm run user:create`, not from the admin area).
 */
export async function customerTarget(deps: Pick<AppDeps, 'commands'>, id: string): Promise<Customer> {
  if (!isUuid(id)) throw new NotFoundError(USER_NOT_FOUND_MESSAGE);
  const { state } = await loadState(deps, customerDecider, streams.customer(id));
  if (!isRegistered(state) || state.status === 'closed' || state.role !== 'customer') throw new NotFoundError(USER_NOT_FOUND_MESSAGE);
  return state;
}
