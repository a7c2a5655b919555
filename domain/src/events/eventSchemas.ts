import type { z } from 'zod';
import type { StreamCategory } from '../streams';
import { accountEventSchemas } from './accountEvents';
import { achEventSchemas } from './achEvents';
import { businessDayEventSchemas } from './businessDayEvents';
import { customerEventSchemas } from './customerEvents';
import { interestDayEventSchemas, interestRateEventSchemas } from './interestEvents';
import { beneficiaryEventSchemas, contactEventSchemas } from './directoryEvents';
import { reservationEventSchemas } from './reservationEvents';
import { standingOrderEventSchemas } from './standingOrderEvents';
import { transferEventSchemas } from './transferEvents';

export interface EventSchemaEntry<Schema extends z.ZodType = z.ZodType> {
  /** Version of the data shape; stored by the services in the event's metadata (`schemaVersion`). */
  readonly schemaVersion: number;
  /** The category of stream the event is appended to. */
  readonly stream: StreamCategory;
  readonly data: Schema;
}

type EntriesOf<Schemas extends Record<string, z.ZodType>, Stream extends StreamCategory> = {
  readonly [K in keyof Schemas]: { readonly schemaVersion: 1; readonly stream: Stream; readonly data: Schemas[K] };
};

function entries<Schemas extends Record<string, z.ZodType>, Stream extends StreamCategory>(
  schemas: Schemas,
  stream: Stream,
): EntriesOf<Schemas, Stream> {
  const result: Record<string, EventSchemaEntry> = {};
  for (const [type, data] of Object.entries(schemas)) result[type] = { schemaVersion: 1, stream, data };
  return result as EntriesOf<Schemas, Stream>;
}

/** The registry: every event type of the bank, its data schema, schema version and stream category. */
export const eventSchemas = {
  ...entries(customerEventSchemas, 'customer'),
  ...entries({ EmailReserved: reservationEventSchemas.EmailReserved, EmailReleased: reservationEventSchemas.EmailReleased }, 'email'),
  ...entries(
    { AccountNumberReserved: reservationEventSchemas.AccountNumberReserved, AccountNumberReleased: reservationEventSchemas.AccountNumberReleased },
    'accountnumber',
  ),
  ...entries(accountEventSchemas, 'account'),
  ...entries(transferEventSchemas, 'transfer'),
  ...entries(beneficiaryEventSchemas, 'beneficiaries'),
  ...entries(contactEventSchemas, 'contact'),
  ...entries(standingOrderEventSchemas, 'standingOrder'),
  ...entries(businessDayEventSchemas, 'businessDays'),
  ...entries(interestDayEventSchemas, 'businessDays'),
  ...entries(interestRateEventSchemas, 'interestRates'),
  ...entries(achEventSchemas, 'achFiles'),
} as const;

export type EventDataMap = { [K in keyof typeof eventSchemas]: z.infer<(typeof eventSchemas)[K]['data']> };
export type BankEventType = keyof EventDataMap;
export type EventData<K extends BankEventType> = EventDataMap[K];

/** Every event of the bank: `{ type, data }`, discriminated by `type`. Ids and metadata are the services' business. */
export type BankEvent = { [K in BankEventType]: { readonly type: K; readonly data: EventDataMap[K] } }[BankEventType];
export type EventOf<K extends BankEventType> = Extract<BankEvent, { type: K }>;
/** The event types appended to streams of one category, e.g. EventTypeOfStream<'account'>. */
export type EventTypeOfStream<S extends StreamCategory> = {
  [K in BankEventType]: (typeof eventSchemas)[K]['stream'] extends S ? K : never;
}[BankEventType];

export const bankEventTypes: readonly BankEventType[] = Object.freeze(Object.keys(eventSchemas) as BankEventType[]);

export function isBankEventType(type: string): type is BankEventType {
  return Object.hasOwn(eventSchemas, type);
}

export function eventTypesOfStream(category: StreamCategory): BankEventType[] {
  return bankEventTypes.filter((type) => eventSchemas[type].stream === category);
}

/** Constructs a typed event (handy for the services and tests). */
export function bankEvent<K extends BankEventType>(type: K, data: EventDataMap[K]): EventOf<K> {
  return { type, data } as EventOf<K>;
}

export class EventParseError extends Error {
  override readonly name = 'EventParseError';
  readonly eventType: string;
  readonly issues: readonly { path: string; message: string }[];
  constructor(eventType: string, message: string, issues: readonly { path: string; message: string }[] = []) {
    super(message);
    this.eventType = eventType;
    this.issues = issues;
  }
}

export type ParseEventResult = { readonly ok: true; readonly event: BankEvent } | { readonly ok: false; readonly error: EventParseError };

/**
 * Validates stored (or about-to-be-stored) event data against its schema.
 * `schemaVersion` defaults to the current one; a version newer than the registry's is refused.
 * Unknown keys are stripped.
 */
export function safeParseEvent(type: string, data: unknown, schemaVersion?: number): ParseEventResult {
  if (!isBankEventType(type)) return { ok: false, error: new EventParseError(type, `Unknown event type: ${type}`) };
  const entry: EventSchemaEntry = eventSchemas[type];
  const version = schemaVersion ?? entry.schemaVersion;
  if (!Number.isInteger(version) || version < 1 || version > entry.schemaVersion) {
    return { ok: false, error: new EventParseError(type, `Unsupported schema version ${version} of ${type}`) };
  }
  const parsed = entry.data.safeParse(data);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
    return { ok: false, error: new EventParseError(type, `Invalid data for ${type}: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`, issues) };
  }
  return { ok: true, event: { type, data: parsed.data } as BankEvent };
}

/** Like safeParseEvent, but throws EventParseError. */
export function parseEvent(type: string, data: unknown, schemaVersion?: number): BankEvent {
  const result = safeParseEvent(type, data, schemaVersion);
  if (!result.ok) throw result.error;
  return result.event;
}
