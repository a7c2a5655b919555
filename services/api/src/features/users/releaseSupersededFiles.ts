import { customerDecider, isRegistered, streams, type CustomerState } from '@bank/domain';
import type { AppDeps } from '../../appDeps';
import { loadState } from '../../commands/runCommand';
import { releaseUnreferencedFiles } from '../files/fileStore';

/** The files a customer's current state refers to: the profile picture and the current verification's documents. */
export function referencedFileIds(state: CustomerState): string[] {
  if (!isRegistered(state)) return [];
  const ids = [state.profilePicture?.fileId, state.verification?.passport.fileId, state.verification?.documentFront.fileId, state.verification?.documentBack.fileId];
  return [...new Set(ids.filter((id): id is string => id !== undefined))];
}

/**
 * After a new verification or profile picture is recorded (under the user's upload lock): the user's files that the
 * current state no longer refers to are released (see releaseUnreferencedFiles), and deleted when nobody else
 * uploaded them. The events keep each document's id, hash and size. A failure here is logged, not answered: the
 * command is done, and the next upload releases what this one could not.
 */
export async function releaseSupersededFiles(deps: Pick<AppDeps, 'commands' | 'pool' | 'logger'>, userId: string): Promise<void> {
  try {
    const { state } = await loadState(deps, customerDecider, streams.customer(userId));
    const deleted = await releaseUnreferencedFiles(deps.pool, userId, referencedFileIds(state));
    if (deleted.length > 0) deps.logger.info({ userId, deleted }, 'Deleted files no longer referenced');
  } catch (error) {
    deps.logger.warn({ err: error, userId }, 'Could not release superseded files (the next upload will)');
  }
}
