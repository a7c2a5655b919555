import { randomUUID } from 'node:crypto';
import { PASSWORD_MIN_LENGTH, requiredEmail } from '@bank/domain';
import type { AppDeps } from '../appDeps';
import { systemScope, type CommandScope } from '../commands/runCommand';
import { registerUser, type Registered } from '../features/users/registerUser';

export type StaffRole = 'admin' | 'auditor';

export interface StaffUserInput {
  readonly role: StaffRole;
  readonly email: string;
  readonly password: string;
  readonly firstName?: string;
  readonly lastName?: string;
}

/**
 * Registers a staff user (admin or auditor): the same registration as a customer's (e-mail and account-number
 * reservations, CustomerRegistered with the role), without an account. 409 'Email already registered' when taken.
 */
export async function createStaffUser(
  deps: Pick<AppDeps, 'store' | 'metrics' | 'now' | 'bcryptCost' | 'logger'>,
  input: StaffUserInput,
  scope: CommandScope = systemScope(),
): Promise<Registered> {
  const email = requiredEmail().parse(input.email);
  if (input.password.length < PASSWORD_MIN_LENGTH) throw new Error(`The password must be at least ${PASSWORD_MIN_LENGTH} characters`);
  return registerUser(deps, scope, {
    userId: randomUUID(),
    firstName: input.firstName ?? 'Bank',
    lastName: input.lastName ?? (input.role === 'admin' ? 'Admin' : 'Auditor'),
    email,
    phone: '',
    address: '',
    state: '',
    password: input.password,
    role: input.role,
  });
}
