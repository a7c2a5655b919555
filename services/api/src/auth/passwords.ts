import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';

/**
 * Passwords (and, until the lead's keyed hash replaces them, payment pins) as bcrypt hashes, computed in worker
 * threads: a bcrypt of cost 10 takes ~70 ms of CPU in bcryptjs, which on the event loop would stall every other
 * request for that long. Hashes made before stay valid: the format is the same.
 */

/** bcrypt cost for passwords and payment pins; never below 10. */
export const MIN_BCRYPT_COST = 10;

interface BcryptTask {
  readonly op: 'hash' | 'compare';
  readonly secret: string;
  readonly hash?: string;
  readonly cost?: number;
}

let pool: Piscina<BcryptTask, string | boolean> | undefined;

function workers(): Piscina<BcryptTask, string | boolean> {
  pool ??= new Piscina<BcryptTask, string | boolean>({
    filename: new URL('./passwordWorker.mjs', import.meta.url).href,
    minThreads: 1,
    // One core is left to the event loop (and the projector, the worker) on a small machine.
    maxThreads: Math.max(1, availableParallelism() - 1),
    idleTimeout: 60_000,
    // A task that finds every thread busy when one frees goes back to the head of the queue, not its tail. Without
    // this (piscina's default), each freed thread took the queue's first task and sent the second to the back, so
    // while new tasks kept coming one could wait until they stopped: under the bench's sign-ups, a password hash
    // waited 60 s and its sign-up was answered 503 (docs/benchmarks.md, "A sign-up that waited 60 s").
    stricterFIFO: true,
  });
  return pool;
}

/** bcrypt hash of `secret` (cost at least MIN_BCRYPT_COST), computed off the event loop. */
export async function hashSecret(secret: string, cost = MIN_BCRYPT_COST): Promise<string> {
  return (await workers().run({ op: 'hash', secret, cost: Math.max(MIN_BCRYPT_COST, cost) })) as string;
}

/**
 * bcrypt compare off the event loop: true when `secret` matches `hash` (any $2a/$2b/$2y hash, whatever its cost).
 * Also the compare for legacy bcrypt payment-pin hashes.
 */
export async function bcryptCompare(secret: string, hash: string): Promise<boolean> {
  return (await workers().run({ op: 'compare', secret, hash })) === true;
}

/** The password check of sign-in and of every password-confirmed action. */
export const verifySecret = bcryptCompare;

/**
 * A hash of nothing anyone knows, compared against when the e-mail is unknown, so that a sign-in takes as long
 * whether or not the account exists.
 */
let decoyHash: Promise<string> | undefined;

export async function verifyAgainstDecoy(secret: string): Promise<false> {
  decoyHash ??= hashSecret(randomBytes(16).toString('hex'), MIN_BCRYPT_COST);
  await bcryptCompare(secret, await decoyHash);
  return false;
}

/** Stops the worker threads (at shutdown; the next hash starts them again). */
export async function closePasswordWorkers(): Promise<void> {
  const running = pool;
  pool = undefined;
  await running?.destroy();
}
