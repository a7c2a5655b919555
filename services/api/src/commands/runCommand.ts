import { handleCommand, loadStream, type CommandContext, type CommandResult, type DomainEventLike, type StreamState } from '@bank/core';
import { isDomainError, type Decider } from '@bank/domain';
import { isWrongExpectedVersion, type EventMetadata } from '@bank/eventstore';
import type { Request, Response } from 'express';
import type { AppDeps } from '../appDeps';
import { idempotentCommandId } from '../http/idempotency';
import { requestIdOf } from '../http/requestId';
import type { CommandOutcome } from '../operations/apiMetrics';

/** Version of the event data shapes the API appends (docs/events.md). */
export const EVENT_SCHEMA_VERSION = 1;

export interface Actor {
  readonly id?: string;
  readonly role: NonNullable<EventMetadata['actorRole']>;
}

/** Who acts and on behalf of which request: copied into every event's metadata. */
export interface CommandScope {
  readonly actor: Actor;
  readonly requestId: string;
  /** Derived from the Idempotency-Key: event ids derive from it, so a repeated command appends nothing new. */
  readonly commandId?: string;
}

/** The scope of a request: its signed-in user (or `actor`), its request id and idempotency key. */
export function commandScope(req: Request, res: Response, actor?: Actor): CommandScope {
  const commandId = idempotentCommandId(res);
  return {
    actor: actor ?? (req.auth ? { id: req.auth.userId, role: req.auth.role } : { role: 'anonymous' }),
    requestId: requestIdOf(res),
    ...(commandId ? { commandId } : {}),
  };
}

/** A scope for work that no request drives (start-up, the CLI). */
export function systemScope(actor: Actor = { role: 'system' }): CommandScope {
  return { actor, requestId: `system-${Date.now()}` };
}

export interface CommandSpec<C extends { readonly type: string }, E extends DomainEventLike, S> {
  readonly decider: Decider<C, E, S>;
  readonly streamId: string;
  /** The command, or a function building it from the stream's current state (called again on each retry). */
  readonly command: C | ((state: S) => C);
}

type CommandDeps = Pick<AppDeps, 'store' | 'metrics' | 'now'>;

function contextOf(scope: CommandScope, commandType: string): CommandContext {
  const metadata: CommandContext['metadata'] = {
    ...(scope.actor.id ? { actorId: scope.actor.id } : {}),
    actorRole: scope.actor.role,
    requestId: scope.requestId,
    correlationId: scope.requestId,
    schemaVersion: EVENT_SCHEMA_VERSION,
  };
  return { metadata, ...(scope.commandId ? { commandId: `${scope.commandId}:${commandType}` } : {}) };
}

function outcomeOf(error: unknown): CommandOutcome {
  if (isDomainError(error)) return 'refused';
  if (isWrongExpectedVersion(error)) return 'conflict';
  return 'error';
}

/**
 * Load → decide → append with the expected revision (core's handleCommand: bounded retry on a conflict, ids,
 * metadata and the hash chain), counted in the command metrics. Domain refusals propagate as DomainError.
 */
export async function runCommand<C extends { readonly type: string }, E extends DomainEventLike, S>(
  deps: CommandDeps,
  scope: CommandScope,
  spec: CommandSpec<C, E, S>,
): Promise<CommandResult<S, E>> {
  const build = (state: S): C => (typeof spec.command === 'function' ? (spec.command as (state: S) => C)(state) : spec.command);
  let commandType = typeof spec.command === 'function' ? 'unknown' : spec.command.type;
  try {
    const result = await handleCommand<S, E>({
      store: deps.store,
      streamId: spec.streamId,
      evolve: spec.decider.evolve,
      initialState: spec.decider.initialState,
      decide: (state) => {
        const command = build(state);
        commandType = command.type;
        return spec.decider.decide(command, state);
      },
      // The context needs the command type for the idempotent ids: built from the spec when it is a value.
      context: contextOf(scope, typeof spec.command === 'function' ? `fn:${spec.streamId}` : spec.command.type),
      ...(deps.now ? { now: deps.now } : {}),
    });
    deps.metrics.commands.inc({ command: commandType, outcome: result.events.length > 0 ? 'appended' : 'unchanged' });
    return result;
  } catch (error) {
    deps.metrics.commands.inc({ command: commandType, outcome: outcomeOf(error) });
    throw error;
  }
}

/** Reads a stream's current state (for a decision made before any I/O, e.g. before storing uploaded files). */
export function loadState<C, E extends DomainEventLike, S>(deps: Pick<AppDeps, 'store'>, decider: Decider<C, E, S>, streamId: string): Promise<StreamState<S>> {
  return loadStream(deps.store, streamId, decider.evolve, decider.initialState);
}
