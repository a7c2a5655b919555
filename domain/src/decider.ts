/**
 * The decider shape every aggregate follows:
 *   decide(command, state) → events   (throws DomainError when the bank refuses; [] when already done)
 *   evolve(state, event)   → state    (never refuses: events are facts)
 *
 * Folding costs O(1) per event whatever the stream's length: an evolve may update the state it is given IN PLACE
 * and return it (maps and sets that grow inside the fold) instead of copying it. So a state is owned by whoever
 * folds it: the command layer folds only states it owns (its cache entry, or a fresh load), and a caller that
 * needs an earlier state keeps it by folding again from the log. An aggregate's `initialState` is frozen and an
 * evolve never changes it (the first event builds a new state).
 *
 * `decide` never changes the state it reads.
 */
export interface Decider<Command, Event, State> {
  /** The aggregate's name (the command layer's cache and snapshots are keyed by it). */
  readonly name: string;
  /**
   * Version of the shape of State. Bump it whenever State (or its snapshot encoding) changes: snapshots of another
   * version are ignored and the state is folded from the log again.
   */
  readonly stateVersion: number;
  readonly initialState: State;
  readonly evolve: (state: State, event: Event) => State;
  readonly decide: (command: Command, state: State) => Event[];
  /** JSON encoding of a state for persisted snapshots; without it the aggregate is never snapshotted. */
  readonly snapshot?: SnapshotCodec<State>;
  /**
   * Required of an aggregate whose evolve updates states in place: a state that decides and folds like `state`
   * without changing it (overlays, see overlay.ts), so that a batch can be decided speculatively and the real state
   * folded only once the events are stored. Aggregates whose evolve returns new states need none.
   */
  readonly fork?: (state: State) => State;
}

export interface SnapshotCodec<State> {
  encode(state: State): unknown;
  decode(json: unknown): State;
}

/** Left fold of events over a state: replaying in one pass or in any split gives the same state. */
export function foldEvents<State, Event>(evolve: (state: State, event: Event) => State, state: State, events: Iterable<Event>): State {
  let current = state;
  for (const event of events) current = evolve(current, event);
  return current;
}

/** Compile-time exhaustiveness check for switches over discriminated unions. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
