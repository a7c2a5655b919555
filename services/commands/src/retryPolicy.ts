/**
 * Retries of a command whose stream another process moved: decided again on the state brought up to date, after a
 * random wait ("full jitter") that grows with each try, so that writers in several processes spread out instead of
 * colliding again in step. 25 tries cover 8 processes appending to one stream at once.
 */
export const DEFAULT_MAX_ATTEMPTS = 25;
const BASE_MS = 2;
const CAP_MS = 200;

/** Milliseconds to wait before try `attempt` (2, 3, …). */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  return random() * Math.min(CAP_MS, BASE_MS * 2 ** Math.min(attempt, 16));
}
