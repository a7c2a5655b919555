import type { Decider } from '@bank/domain';
import type { CommandContext, DomainEventLike, StreamHead } from '../commandContext';
import type { CommandResult } from './commandHandlerTypes';

/** A decider with its types erased: what the handler's parts need of it. */
export type AnyDecider = Pick<Decider<unknown, DomainEventLike, unknown>, 'name' | 'stateVersion' | 'initialState' | 'evolve' | 'snapshot' | 'fork'>;

/** A command waiting in its stream's queue. */
export interface CommandJob {
  readonly kind: 'command';
  readonly decide: (state: unknown) => readonly DomainEventLike[];
  readonly context: CommandContext;
  readonly commandType: string;
  readonly expectNew: boolean;
  readonly started: number;
  readonly resolve: (result: CommandResult<unknown, DomainEventLike>) => void;
  readonly reject: (error: unknown) => void;
}

/** A read of a stream's state waiting in its stream's queue. */
export interface ReadJob {
  readonly kind: 'read';
  readonly fresh: boolean;
  readonly view: (state: unknown, head: StreamHead) => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

export type StreamJob = CommandJob | ReadJob;
