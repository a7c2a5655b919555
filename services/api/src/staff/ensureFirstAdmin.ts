import { isDomainError } from '@bank/domain';
import type { AppDeps } from '../appDeps';
import { createStaffUser, StaffPasswordError } from './createStaffUser';

export type FirstAdminOutcome = 'created' | 'exists' | 'not-configured' | 'email-taken';

/**
 * At start-up: when ADMIN_EMAIL and ADMIN_PASSWORD are set and no admin exists yet, creates that admin, who is led
 * through enrolling a second factor at the first sign-in (STAFF_SECOND_FACTOR=required).
 * "No admin" is read from the read models once the projector has caught up with the log as it stands now; the
 * e-mail reservation keeps two instances starting at once from creating two.
 */
export async function ensureFirstAdmin(deps: AppDeps, catchUpTimeoutMs = 30_000): Promise<FirstAdminOutcome> {
  const { ADMIN_EMAIL: email, ADMIN_PASSWORD: password } = deps.config;
  if (!email || !password) return 'not-configured';
  const head = await deps.store.headPosition();
  if (head && !(await deps.projection.waitForPosition(head, catchUpTimeoutMs))) {
    deps.logger.warn('The projector has not caught up yet; deciding on the first admin from what it has');
  }
  const { rowCount } = await deps.pool.query("SELECT 1 FROM rm.users WHERE role = 'admin' AND NOT is_closed LIMIT 1");
  if (rowCount) return 'exists';
  try {
    const { customer } = await createStaffUser(deps, { role: 'admin', email, password });
    deps.logger.info({ userId: customer.userId, email: customer.email }, 'Created the first admin from ADMIN_EMAIL');
    return 'created';
  } catch (error) {
    if (error instanceof StaffPasswordError) throw new Error(`ADMIN_PASSWORD: ${error.message} (staff passwords need 12 characters, at most 72 bytes)`, { cause: error });
    if (isDomainError(error) && error.code === 'email_taken') {
      deps.logger.warn({ email }, 'ADMIN_EMAIL is already registered; no admin created');
      return 'email-taken';
    }
    throw error;
  }
}
