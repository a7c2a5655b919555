import { randomUUID } from 'node:crypto';
import { requiredEmail, staffPasswordField } from '@bank/domain';
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

/** A staff password that is too short or too long (the CLI and ADMIN_PASSWORD say so and stop). */
export class StaffPasswordError extends Error {
  override readonly name = 'StaffPasswordError';
}

/**
 * Registers a staff user (admin or auditor): the same registration as a customer's (e-mail and account-number
 * reservations, CustomerRegistered with the role), without an account. 409 'Email already registered' when taken.
 * The password needs 12 characters (at most 72 bytes); staff enrol a second factor at their first sign-in.
 */
export async function createStaffUser(
  deps: Pick<AppDeps, 'commands' | 'store' | 'metrics' | 'now' | 'bcryptCost' | 'logger'>,
  input: StaffUserInput,
  scope: CommandScope = systemScope(),
): Promise<Registered> {
  const email = requiredEmail().parse(input.email);
  const password = staffPasswordField().safeParse(input.password);
  if (!password.success) throw new StaffPasswordError(password.error.issues[0]?.message ?? 'Invalid password');
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
