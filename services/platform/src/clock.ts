/** The time port: services read the time from a Clock they are given, so that tests can move it. */
export interface Clock {
  now(): Date;
}

/** The production clock: the system's time. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock tests set and advance by hand. */
export interface ManualClock extends Clock {
  set(at: Date | string): void;
  advance(ms: number): void;
}

export function manualClock(start: Date | string): ManualClock {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set(at) {
      current = new Date(at).getTime();
    },
    advance(ms) {
      current += ms;
    },
  };
}

/** The UTC calendar date (YYYY-MM-DD) of an instant. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}
