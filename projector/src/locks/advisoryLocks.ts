/**
 * The projector's PostgreSQL advisory locks, each a (class, key) pair of int4 hashes so that they never collide with
 * the event store's (`hashtext('eventstore.streams')`, …).
 *
 * - leader: session lock held by the one active projector instance of a read-model set; standbys poll for it.
 * - apply:  transaction lock taken by every batch (and by the rebuild's final catch-up + swap), so a rebuild can
 *           pause the live projector for the instant of the swap.
 * - rebuild: session lock, one rebuild at a time.
 * - migrate: transaction lock around a schema's migrations, one for the whole database (they may share DDL).
 */
export type ProjectorLock = 'leader' | 'apply' | 'rebuild' | 'migrate';

export const PROJECTOR_LOCK_CLASS = 'bank.projector';

/** SQL arguments `hashtext($1), hashtext($2)` for a lock: [class, key]. */
export function lockArgs(lock: ProjectorLock, name: string): [string, string] {
  return [PROJECTOR_LOCK_CLASS, `${lock}:${name}`];
}

/** The migration lock: one for the whole database (a migration's DDL may be database-wide: CREATE EXTENSION). */
export function migrateLockArgs(): [string, string] {
  return lockArgs('migrate', '*');
}

export const LOCK_SQL = {
  tryLock: 'SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS locked',
  unlock: 'SELECT pg_advisory_unlock(hashtext($1), hashtext($2)) AS unlocked',
  lock: 'SELECT pg_advisory_lock(hashtext($1), hashtext($2))',
  xactLock: 'SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))',
} as const;
