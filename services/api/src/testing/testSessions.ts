import type { Role } from '@bank/domain';
import type { AppDeps } from '../appDeps';
import { openSession } from '../auth/sessions/sessionStore';

/**
 * A token for a user of a test harness that does not go through sign-in: a real session (auth.sessions), opened as
 * if the sign-in had passed a second factor, so that staff routes answer.
 */
export async function testToken(deps: Pick<AppDeps, 'pool' | 'config' | 'now' | 'keys'>, user: { readonly userId: string; readonly role: Role }): Promise<string> {
  const { token } = await openSession(deps, { ...user, secondFactor: true, client: { device: 'Test harness', userAgent: 'test', address: '127.0.0.1' } });
  return token;
}
