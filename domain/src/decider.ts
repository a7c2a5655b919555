/**
 * The decider shape every aggregate follows:
 *   decide(command, state) → events   (throws DomainError when the bank refuses; [] when already done)
 *   evolve(state, event)   → state    (pure; never refuses: events are facts)
 */
export interface Decider<Command, Event, State> {
  readonly initialState: State;
  readonly evolve: (state: State, event: Event) => State;
  readonly decide: (command: Command, state: State) => Event[];
}

/** Left fold of events over a state: replaying in one pass or in any split gives the same state. */
export function foldEvents<State, Event>(evolve: (state: State, event: Event) => State, state: State, events: Iterable<Event>): State {
  let current = state;
  for (const event of events) current = evolve(current, event);
  return current;
}

/** Runs several commands in sequence against one stream (each sees the previous one's events). */
export function decideAll<Command, Event, State>(decider: Decider<Command, Event, State>, commands: readonly Command[], state: State): Event[] {
  const events: Event[] = [];
  let current = state;
  for (const command of commands) {
    const produced = decider.decide(command, current);
    current = foldEvents(decider.evolve, current, produced);
    events.push(...produced);
  }
  return events;
}

/** Compile-time exhaustiveness check for switches over discriminated unions. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
