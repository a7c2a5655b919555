import { accountDecider, customerDecider, isRegistered, streams, type Customer, type ProfileDetails, type Role } from '@bank/domain';
import type { Position } from '@bank/eventstore';
import type { AppDeps } from '../../appDeps';
import { hashSecret } from '../../auth/passwords';
import { nowIso } from '../../commands/clock';
import { releaseAccountNumber, releaseEmail, reserveEmail, reserveFreshAccountNumber } from '../../commands/reservations';
import { loadState, runCommand, type CommandScope } from '../../commands/runCommand';
import { latestPosition } from '../../http/sendCommandResult';

export interface Registration extends ProfileDetails {
  readonly userId: string;
  readonly password: string;
  readonly role: Role;
}

export interface Registered {
  readonly customer: Customer;
  readonly position: Position | undefined;
}

type Deps = Pick<AppDeps, 'commands' | 'store' | 'metrics' | 'now' | 'bcryptCost' | 'logger'>;

/**
 * Registers a user: reserve the e-mail (409 when taken), reserve a fresh random account number, record the
 * registration and, for a customer, open the account. Resumable: run again with the same userId (the signup's
 * Idempotency-Key derives it) it completes what is missing. When registration fails before the customer is
 * recorded, both reservations are released, so the e-mail stays usable.
 */
export async function registerUser(deps: Deps, scope: CommandScope, input: Registration): Promise<Registered> {
  const { userId } = input;
  const positions: (Position | undefined)[] = [await reserveEmail(deps, scope, input.email, userId)];
  let customer: Customer;
  const existing = await loadState(deps, customerDecider, streams.customer(userId));
  if (isRegistered(existing.state) && existing.state.status === 'active') {
    customer = existing.state;
  } else {
    let accountNumber: string | undefined;
    try {
      const reserved = await reserveFreshAccountNumber(deps, scope, userId);
      accountNumber = reserved.accountNumber;
      positions.push(reserved.position);
      const passwordHash = await hashSecret(input.password, deps.bcryptCost);
      const result = await runCommand(deps, scope, {
        decider: customerDecider,
        streamId: streams.customer(userId),
        command: {
          type: 'RegisterCustomer',
          userId,
          firstName: input.firstName,
          lastName: input.lastName,
          email: input.email,
          phone: input.phone,
          address: input.address,
          state: input.state,
          passwordHash,
          accountNumber,
          role: input.role,
          now: nowIso(deps),
        },
      });
      positions.push(result.position);
      if (!isRegistered(result.state)) throw new Error('Registration recorded no customer');
      customer = result.state as Customer;
    } catch (error) {
      await releaseReservations(deps, scope, input.email, accountNumber, userId);
      throw error;
    }
  }
  if (customer.role === 'customer') {
    const account = await loadState(deps, accountDecider, streams.account(userId));
    if (account.state.status === 'unopened') {
      const opened = await runCommand(deps, scope, {
        decider: accountDecider,
        streamId: streams.account(userId),
        command: { type: 'OpenAccount', userId, accountNumber: customer.accountNumber, now: nowIso(deps) },
      });
      positions.push(opened.position);
    }
  }
  return { customer, position: latestPosition(...positions) };
}

async function releaseReservations(deps: Deps, scope: CommandScope, email: string, accountNumber: string | undefined, userId: string): Promise<void> {
  try {
    await releaseEmail(deps, scope, email, userId);
    if (accountNumber) await releaseAccountNumber(deps, scope, accountNumber, userId);
  } catch (error) {
    // The abandoned-reservation rule (STALE_RESERVATION_MS) frees the e-mail later.
    deps.logger.warn({ err: error, userId }, 'Could not release the reservations of a failed registration');
  }
}
