import { formatInstant, messageIdOf } from '@bank/mail';
import type { AppDeps } from '../../appDeps';
import type { ClientInfo } from '../../auth/sessions/clientInfo';
import type { UserJson } from '../users/userShape';
import { apiMailOf } from './mailOf';

/**
 * A sign-in from a device the user had not used (the session store says so): a security notice, queued under the
 * session's id (once per sign-in). Never fails the sign-in: a notice that cannot be queued is logged.
 */
export function noticeNewDevice(deps: AppDeps, user: Pick<UserJson, '_id' | 'email' | 'firstName'>, sessionId: string, client: ClientInfo): void {
  void (async () => {
    const outbox = await apiMailOf(deps);
    await outbox.enqueue({
      id: messageIdOf('newDevice', sessionId),
      kind: 'newDevice',
      userId: user._id,
      to: user.email,
      data: { firstName: user.firstName, device: client.device, address: client.address, at: formatInstant((deps.now?.() ?? new Date()).toISOString()) },
    });
  })().catch((error: unknown) => deps.logger.error({ err: error, userId: user._id }, 'Could not queue the new-device notice'));
}
