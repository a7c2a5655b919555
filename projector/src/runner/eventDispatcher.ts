import { isBankEventType, safeParseEvent } from '@bank/domain';
import { formatPosition, type RecordedEvent } from '@bank/eventstore';
import { isServiceUnavailable } from '@bank/platform';
import type { BatchChanges } from '../changes/batchChanges';
import type { ChangeSource } from '../changes/tableChanges';
import type { ProjectedEvent, Projection, ProjectionDb } from '../projections/projection';
import type { ProjectorLogger } from './projectorLogger';

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

/** An event of the log as the projections see it: validated when some projection handles its type. */
export interface DecodedEvent {
  readonly recorded: RecordedEvent;
  readonly positionText: string;
  /** Undefined for a type no projection handles (or the domain does not know). */
  readonly projected: ProjectedEvent | undefined;
  /** The domain does not know the type: passed over (and counted). */
  readonly unknown: boolean;
}

type AnyHandler = (event: ProjectedEvent, db: ProjectionDb) => void | Promise<void>;
type EveryHandler = (event: RecordedEvent, db: ProjectionDb) => void | Promise<void>;

interface Call {
  readonly projection: Projection;
  readonly handler: AnyHandler;
  /** An every-event handler: it gets the recorded event. */
  readonly every: boolean;
}

const isPromise = (value: unknown): value is Promise<void> => typeof (value as Promise<void> | undefined)?.then === 'function';

/**
 * Runs a set of projections over events: validates each event once with the domain's schema (the same upcasting
 * and checks as the write side), then calls every handler of its type with the batch's changes. Any error an
 * event causes becomes an EventApplyError naming it.
 */
export class EventDispatcher {
  private readonly byType = new Map<string, { projection: Projection; handler: AnyHandler }[]>();
  private readonly everyEvent: { projection: Projection; handler: EveryHandler }[] = [];
  private readonly calls = new Map<string, readonly Call[]>();

  constructor(
    readonly projections: readonly Projection[],
    private readonly logger: ProjectorLogger,
  ) {
    for (const projection of projections) {
      if (projection.everyEvent) this.everyEvent.push({ projection, handler: projection.everyEvent });
      for (const [type, handler] of Object.entries(projection.handlers)) {
        if (!handler) continue;
        const list = this.byType.get(type) ?? [];
        list.push({ projection, handler: handler as AnyHandler });
        this.byType.set(type, list);
      }
    }
  }

  /** True when a projection of this set has a handler for `type`. */
  handles(type: string): boolean {
    return this.byType.has(type);
  }

  /** Validates an event (when handled); throws EventApplyError when the domain refuses its data. */
  decode(event: RecordedEvent, handled: (type: string) => boolean = (type) => this.handles(type)): DecodedEvent {
    const positionText = formatPosition(event.position);
    if (!isBankEventType(event.type)) {
      this.logger.warn({ eventId: event.id, eventType: event.type, streamId: event.streamId, position: positionText }, 'projector passed over an event of an unknown type');
      return { recorded: event, positionText, projected: undefined, unknown: true };
    }
    if (!handled(event.type)) return { recorded: event, positionText, projected: undefined, unknown: false };
    const schemaVersion = typeof event.metadata.schemaVersion === 'number' ? event.metadata.schemaVersion : undefined;
    const parsed = safeParseEvent(event.type, event.data, schemaVersion);
    if (!parsed.ok) throw new EventApplyError(event, parsed.error);
    const projected = {
      type: parsed.event.type,
      data: parsed.event.data,
      id: event.id,
      streamId: event.streamId,
      position: event.position,
      positionText,
      metadata: event.metadata,
      created: event.created,
      recorded: event,
    } as ProjectedEvent;
    return { recorded: event, positionText, projected, unknown: false };
  }

  /** Runs this set's handlers for one decoded event, into `changes` (a promise only when a handler returned one). */
  apply(decoded: DecodedEvent, changes: BatchChanges): void | Promise<void> {
    const calls = this.callsFor(decoded.projected?.type);
    if (calls.length === 0) return;
    const source = decoded.projected ?? { type: decoded.recorded.type, streamId: decoded.recorded.streamId, positionText: decoded.positionText, recorded: decoded.recorded };
    for (let index = 0; index < calls.length; index += 1) {
      const result = this.call(calls[index]!, decoded, changes, source);
      if (isPromise(result)) return this.applyRest(calls, index, result, decoded, changes, source);
    }
  }

  /** The handlers an event of this type runs: the every-event ones first, then its type's (no closures: hot path). */
  private callsFor(type: string | undefined): readonly Call[] {
    const key = type ?? '';
    let calls = this.calls.get(key);
    if (!calls) {
      calls = [
        ...this.everyEvent.map(({ projection, handler }) => ({ projection, handler: handler as unknown as AnyHandler, every: true })),
        ...(type ? (this.byType.get(type) ?? []) : []).map(({ projection, handler }) => ({ projection, handler, every: false })),
      ];
      this.calls.set(key, calls);
    }
    return calls;
  }

  private call(call: Call, decoded: DecodedEvent, changes: BatchChanges, source: ChangeSource): void | Promise<void> {
    try {
      const event = call.every ? (decoded.recorded as unknown as ProjectedEvent) : decoded.projected!;
      return call.handler(event, changes.contextFor(call.projection, source));
    } catch (error) {
      throw new EventApplyError(decoded.recorded, error);
    }
  }

  /** The rest of apply() once a handler returned a promise (handlers usually do not). */
  private async applyRest(calls: readonly Call[], index: number, pending: Promise<void>, decoded: DecodedEvent, changes: BatchChanges, source: ChangeSource): Promise<void> {
    try {
      await pending;
      for (let next = index + 1; next < calls.length; next += 1) await this.call(calls[next]!, decoded, changes, source);
    } catch (error) {
      throw error instanceof EventApplyError ? error : new EventApplyError(decoded.recorded, error);
    }
  }

  /** Decodes and applies every event into `changes`; returns how many were of a type the domain does not know. */
  async fold(events: readonly RecordedEvent[], changes: BatchChanges): Promise<number> {
    let unknown = 0;
    for (const event of events) {
      const decoded = this.decode(event);
      if (decoded.unknown) unknown += 1;
      const result = this.apply(decoded, changes);
      if (result) await result;
    }
    return unknown;
  }
}

/**
 * Errors that say nothing about the event: the database unavailable as the API sees it (a lost or refused
 * connection, a server shutting down or starting, too many connections, a full disk, a write that reached a
 * read-only server: a switchover's demoted primary, which the one endpoint can still hand a new connection for a
 * moment; isServiceUnavailable), and besides those any other resource or server-side failure (classes 53, 57P, 58),
 * a serialization failure or deadlock, a lock or statement timeout. The batch is retried on a new connection;
 * anything else is the event's fault.
 */
export function isTransientDatabaseError(error: unknown): boolean {
  if (error instanceof EventApplyError) return false;
  if (isServiceUnavailable(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (/^(53|57P|58)/.test(code) || code === '40001' || code === '40P01' || code === '55P03' || code === '57014');
}
