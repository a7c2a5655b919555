import { type ActorRole, type CommandContext, type CommandResult, type DomainEventLike } from '@bank/commands';
import { isDomainError, type Decider } from '@bank/domain';
import { isWrongExpectedVersion } from '@bank/eventstore';
import type { Request, Response } from 'express';
import type { AppDeps } from '../appDeps';
import { idempotentCommandId } from '../http/idempotency';
import { requestIdOf } from '../http/requestId';
import type { CommandOutcome } from '../operations/apiMetrics';

export interface Actor {
  readonly id?: string;
  readonly role: ActorRole;
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

type CommandDeps = Pick<AppDeps, 'commands' | 'metrics'>;

function contextOf(scope: CommandScope, commandKey: string): CommandContext {
  const metadata: CommandContext['metadata'] = {
    ...(scope.actor.id ? { actorId: scope.actor.id } : {}),
    actorRole: scope.actor.role,
    requestId: scope.requestId,
    correlationId: scope.requestId,
  };
  return { metadata, ...(scope.commandId ? { commandId: `${scope.commandId}:${commandKey}` } : {}) };
}

function outcomeOf(error: unknown): CommandOutcome {
  if (isDomainError(error)) return 'refused';
  if (isWrongExpectedVersion(error)) return 'conflict';
  return 'error';
}

/**
 * A command of a request, through the process's one command handler (@bank/commands: queued per stream, decided on
 * the cached state, appended with the expected revision, retried on a conflict with another process), counted in
 * the API's command metrics. Domain refusals propagate as DomainError.
 */
export async function runCommand<C extends { readonly type: string }, E extends DomainEventLike, S>(
  deps: CommandDeps,
  scope: CommandScope,
  spec: CommandSpec<C, E, S>,
): Promise<CommandResult<S, E>> {
  const build = (state: S): C => (typeof spec.command === 'function' ? (spec.command as (state: S) => C)(state) : spec.command);
  let commandType = typeof spec.command === 'function' ? 'unknown' : spec.command.type;
  try {
    const result = await deps.commands.execute<C, E, S>({
      decider: spec.decider,
      streamId: spec.streamId,
      decide: (state) => {
        const command = build(state);
        commandType = command.type;
        return spec.decider.decide(command, state);
      },
      // The idempotent ids need a key per command: the command type when it is a value, else the stream.
      context: contextOf(scope, typeof spec.command === 'function' ? `fn:${spec.streamId}` : spec.command.type),
      commandType,
    });
    deps.metrics.commands.inc({ command: commandType, outcome: result.events.length > 0 ? 'appended' : 'unchanged' });
    return result;
  } catch (error) {
    deps.metrics.commands.inc({ command: commandType, outcome: outcomeOf(error) });
    throw error;
  }
}

/**
 * A stream's current state (brought up to date with the store) for a decision made before any I/O, e.g. before
 * storing uploaded files. Read it at once: an aggregate that folds in place keeps changing the same object.
 */
export function loadState<C, E, S>(deps: Pick<AppDeps, 'commands'>, decider: Decider<C, E, S>, streamId: string): Promise<{ readonly state: S }> {
  return deps.commands.read(decider as unknown as Decider<never, never, S>, streamId, (state) => ({ state }));
}
