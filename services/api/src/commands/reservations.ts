import { randomInt } from 'node:crypto';
import {
  accountNumberReservationDecider,
  emailReservationDecider,
  isDomainError,
  normalizeEmail,
  streams,
} from '@bank/domain';
import type { Position } from '@bank/eventstore';
import type { AppDeps } from '../appDeps';
import { runCommand, type CommandScope } from './runCommand';

type Deps = Pick<AppDeps, 'commands' | 'store' | 'metrics' | 'now'>;

/**
 * A reservation whose holder never registered (the process died between reserving and registering) is released
 * after this long, so that an e-mail address can never be blocked for good.
 */
export const STALE_RESERVATION_MS = 2 * 60_000;

/** Holds `email` for `userId` (no-op when it already does); 409 'Email already registered' when another user holds it. */
export async function reserveEmail(deps: Deps, scope: CommandScope, email: string, userId: string): Promise<Position | undefined> {
  const reserve = () =>
    runCommand(deps, scope, { decider: emailReservationDecider, streamId: streams.email(email), command: { type: 'ReserveEmail', email, userId } });
  try {
    return (await reserve()).position;
  } catch (error) {
    if (!isDomainError(error) || error.code !== 'email_taken' || !(await releaseIfAbandoned(deps, email))) throw error;
    return (await reserve()).position;
  }
}

/** Releases an e-mail reservation whose holder has no customer stream and which is older than STALE_RESERVATION_MS. */
async function releaseIfAbandoned(deps: Deps, email: string): Promise<boolean> {
  const events = await deps.store.readStream(streams.email(email));
  const last = events.at(-1);
  if (!last || last.type !== 'EmailReserved') return false;
  const holder = String(last.data.userId);
  const now = deps.now?.() ?? new Date();
  if (now.getTime() - last.created.getTime() < STALE_RESERVATION_MS) return false;
  if ((await deps.store.readStream(streams.customer(holder), { limit: 1 })).length > 0) return false;
  await releaseEmail(deps, { actor: { role: 'system' }, requestId: `release-abandoned-${holder}` }, email, holder);
  return true;
}

/** Frees `email` if `userId` holds it (no-op otherwise). */
export async function releaseEmail(deps: Deps, scope: CommandScope, email: string, userId: string): Promise<Position | undefined> {
  const result = await runCommand(deps, scope, {
    decider: emailReservationDecider,
    streamId: streams.email(email),
    command: { type: 'ReleaseEmail', email: normalizeEmail(email), userId },
  });
  return result.position;
}

/** Holds `accountNumber` for `userId`; 409 'Account number already in use' when another user holds it. */
export async function reserveAccountNumber(deps: Deps, scope: CommandScope, accountNumber: string, userId: string): Promise<Position | undefined> {
  const result = await runCommand(deps, scope, {
    decider: accountNumberReservationDecider,
    streamId: streams.accountNumber(accountNumber),
    command: { type: 'ReserveAccountNumber', accountNumber, userId },
  });
  return result.position;
}

export async function releaseAccountNumber(deps: Deps, scope: CommandScope, accountNumber: string, userId: string): Promise<Position | undefined> {
  const result = await runCommand(deps, scope, {
    decider: accountNumberReservationDecider,
    streamId: streams.accountNumber(accountNumber),
    command: { type: 'ReleaseAccountNumber', accountNumber, userId },
  });
  return result.position;
}

/** A random 10-digit number (no leading zero). */
export function randomAccountNumber(): string {
  return String(randomInt(1_000_000_000, 10_000_000_000));
}

const ACCOUNT_NUMBER_ATTEMPTS = 10;

/** Reserves a fresh random account number for `userId`, drawing again on a collision. */
export async function reserveFreshAccountNumber(
  deps: Deps,
  scope: CommandScope,
  userId: string,
  draw: () => string = randomAccountNumber,
): Promise<{ accountNumber: string; position: Position | undefined }> {
  for (let attempt = 1; ; attempt += 1) {
    const accountNumber = draw();
    try {
      const position = await reserveAccountNumber(deps, scope, accountNumber, userId);
      return { accountNumber, position };
    } catch (error) {
      if (!isDomainError(error) || error.code !== 'account_number_taken' || attempt >= ACCOUNT_NUMBER_ATTEMPTS) throw error;
    }
  }
}
