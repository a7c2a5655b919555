import type { KeyringKey } from '@bank/platform';
import type { NewEvent } from '@bank/eventstore';
import { toNewEvents, type DomainEventLike, type StreamHead } from '../commandContext';
import type { AnyDecider, CommandJob } from './commandJobs';

/** One command's decision in a batch: its events ([] = nothing to do) or the error that refused it. */
export interface Decision {
  readonly job: CommandJob;
  readonly events?: readonly DomainEventLike[];
  readonly error?: unknown;
  /** The state right after this command (and the batch's commands before it). */
  readonly state: unknown;
}

export interface BatchDecision {
  readonly decisions: readonly Decision[];
  /** Each appending command's events, in order. */
  readonly toAppend: readonly (readonly DomainEventLike[])[];
  /** Some command appends nothing (a refusal or a no-op): answered only once the state is known to be current. */
  readonly unappended: boolean;
  /** The state after every decision of the batch. */
  readonly state: unknown;
}

export const appends = (decision: Decision): boolean => decision.events !== undefined && decision.events.length > 0;

/**
 * Decides each command on the state the previous ones left: on a fork for aggregates that fold in place, so the
 * cached state changes only once the events are stored.
 */
export function decideBatch(decider: AnyDecider, current: unknown, jobs: readonly CommandJob[]): BatchDecision {
  let state = decider.fork ? decider.fork(current) : current;
  const decisions: Decision[] = [];
  const toAppend: DomainEventLike[][] = [];
  let unappended = false;
  for (const job of jobs) {
    try {
      const events = job.decide(state);
      if (events.length > 0) {
        for (const event of events) state = decider.evolve(state, event);
        toAppend.push([...events]);
      } else unappended = true;
      decisions.push({ job, events, state });
    } catch (error) {
      unappended = true;
      decisions.push({ job, error, state });
    }
  }
  return { decisions, toAppend, unappended, state };
}

/** The batch's events for the store, the hash chain continuing from `head`; and where the stream stands after them. */
export function eventsToAppend(
  streamId: string,
  decisions: readonly Decision[],
  head: StreamHead,
  now: () => Date,
  chainKey: KeyringKey | undefined,
): { readonly newEvents: NewEvent[]; readonly after: StreamHead } {
  let after = head;
  const newEvents = decisions.flatMap((decision) => {
    if (!decision.events || decision.events.length === 0) return [];
    const wrapped = toNewEvents(streamId, decision.events, after, decision.job.context, now(), chainKey);
    after = { revision: (after.revision ?? -1n) + BigInt(wrapped.length), lastHash: String(wrapped.at(-1)!.metadata!.hash) };
    return wrapped;
  });
  return { newEvents, after };
}
