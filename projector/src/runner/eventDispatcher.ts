import { isBankEventType, safeParseEvent } from '@bank/domain';
import { formatPosition, type RecordedEvent } from '@bank/eventstore';
import type { ProjectedEvent, Projection, ProjectionDb } from '../projections/projection';
import type { ProjectorLogger } from './projectorLogger';

export type DispatchOutcome = 'applied' | 'unknown';

/** An event the projector cannot apply: the projector stops on it (never skips it silently). */
export class EventApplyError extends Error {
  override readonly name = 'EventApplyError';
  readonly eventId: string;
  readonly eventType: string;
  readonly streamId: string;
  readonly position: string;
  constructor(event: RecordedEvent, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`Cannot apply ${event.type} ${event.id} of ${event.streamId} at ${formatPosition(event.position)}: ${reason}`, { cause });
    this.eventId = event.id;
    this.eventType = event.type;
    this.streamId = event.streamId;
    this.position = formatPosition(event.position);
  }
}

export interface EventDispatcher {
  /** Validates the event with the domain's schema and runs every projection handling its type. */
  dispatch(event: RecordedEvent, db: ProjectionDb): Promise<DispatchOutcome>;
}

type AnyHandler = (event: ProjectedEvent, db: ProjectionDb) => Promise<void>;

export function createEventDispatcher(projections: readonly Projection[], logger: ProjectorLogger): EventDispatcher {
  const byType = new Map<string, AnyHandler[]>();
  const everyEvent = projections.flatMap((projection) => (projection.everyEvent ? [projection.everyEvent] : []));
  for (const projection of projections) {
    for (const [type, handler] of Object.entries(projection.handlers)) {
      if (!handler) continue;
      const list = byType.get(type) ?? [];
      list.push(handler as AnyHandler);
      byType.set(type, list);
    }
  }

  return {
    async dispatch(event, db) {
      try {
        for (const handler of everyEvent) await handler(event, db);
        if (!isBankEventType(event.type)) {
          logger.warn({ eventId: event.id, eventType: event.type, streamId: event.streamId, position: formatPosition(event.position) }, 'projector passed over an event of an unknown type');
          return 'unknown';
        }
        const handlers = byType.get(event.type);
        if (!handlers) return 'applied';
        const schemaVersion = typeof event.metadata.schemaVersion === 'number' ? event.metadata.schemaVersion : undefined;
        const parsed = safeParseEvent(event.type, event.data, schemaVersion);
        if (!parsed.ok) throw parsed.error;
        const projected = {
          type: parsed.event.type,
          data: parsed.event.data,
          id: event.id,
          streamId: event.streamId,
          position: event.position,
          positionText: formatPosition(event.position),
          metadata: event.metadata,
          created: event.created,
          recorded: event,
        } as ProjectedEvent;
        for (const handler of handlers) await handler(projected, db);
        return 'applied';
      } catch (error) {
        if (isTransientDatabaseError(error)) throw error;
        throw new EventApplyError(event, error);
      }
    },
  };
}

/**
 * Errors that say nothing about the event: a lost connection, a server shutting down, a serialization failure or
 * deadlock, a lock or statement timeout. The batch is retried; anything else is the event's fault.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  if (error instanceof EventApplyError) return false;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    return /^(08|53|57P|58)/.test(code) || code === '40001' || code === '40P01' || code === '55P03' || code === '57014';
  }
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection (is )?(closed|ended|lost)|ECONNRESET|ECONNREFUSED|EPIPE|Client has encountered a connection error/i.test(message);
}
