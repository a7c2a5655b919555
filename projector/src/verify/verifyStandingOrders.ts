import { evolveStandingOrder, initialStandingOrderState, parseEvent, type StandingOrder, type StandingOrderEvent, type StandingOrderState } from '@bank/domain';
import { comparePositions, type EventStore, type Position } from '@bank/eventstore';
import type pg from 'pg';
import { DEFAULT_PROJECTOR_NAME, positionOrUndefined } from '../checkpoint/checkpointStore';
import { READ_MODEL_SCHEMA } from '../schema/readModelSchema';
import { readModelTables } from '../schema/readModelTables';

/** One field of an order that the read model holds otherwise than the replay of its stream gives. */
export interface StandingOrderFieldMismatch {
  /** The read model's column: `status`, `amount_cents`, `last_occurrence_date`, … */
  readonly field: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

/** An order of rm.standing_orders that differs from the replay of its stream: one per order. */
export interface StandingOrderMismatch {
  readonly orderId: string;
  readonly stream: string;
  /** `missing`: an order of the log with no row; `extra`: a row with no order in the log; `fields`: values differ. */
  readonly problem: 'missing' | 'extra' | 'fields';
  /** The differing fields (problem `fields`). */
  readonly fields: readonly StandingOrderFieldMismatch[];
}

export interface VerifyStandingOrdersResult {
  readonly ok: boolean;
  /** Orders compared (those of the log up to the read models' checkpoint, and the rows without one). */
  readonly checked: number;
  readonly mismatches: StandingOrderMismatch[];
}

export interface VerifyStandingOrdersOptions {
  readonly pool: pg.Pool;
  readonly store: EventStore;
  readonly name?: string;
  readonly schema?: string;
  readonly batchSize?: number;
}

const STREAM_PREFIX = 'standingOrder-';
const STANDING_ORDER_EVENT_TYPES: ReadonlySet<string> = new Set<StandingOrderEvent['type']>([
  'StandingOrderCreated',
  'StandingOrderPaused',
  'StandingOrderResumed',
  'StandingOrderCancelled',
  'OccurrencePaid',
  'OccurrenceFailed',
  'OccurrenceMissed',
  'StandingOrderSuspended',
]);

interface OrderRow {
  id: string;
  payer_id: string;
  status: string;
  from_account: string;
  account_number: string;
  recipient_name: string;
  amount_cents: string;
  description: string;
  frequency: string;
  day: number;
  first_date: string;
  end_date: string | null;
  payment_count: number | null;
  created_at: string;
  last_occurrence_date: string | null;
  last_occurrence_status: string | null;
}

/** The row rm.standing_orders should hold for an order, by the domain's fold of its stream (the projector's columns). */
function expectedRow(order: StandingOrder): Omit<OrderRow, 'id'> {
  const last = order.recent[0];
  return {
    payer_id: order.payerId,
    status: order.status,
    from_account: order.from,
    account_number: order.accountNumber,
    recipient_name: order.recipientName,
    amount_cents: String(order.amountCents),
    description: order.description,
    frequency: order.schedule.frequency,
    day: order.schedule.day,
    first_date: order.schedule.firstDate,
    end_date: order.schedule.endDate ?? null,
    payment_count: order.schedule.count ?? null,
    created_at: new Date(order.createdAt).toISOString(),
    last_occurrence_date: last?.date ?? null,
    last_occurrence_status: last?.status ?? null,
  };
}

function differences(expected: Omit<OrderRow, 'id'>, row: OrderRow): StandingOrderFieldMismatch[] {
  const found: StandingOrderFieldMismatch[] = [];
  for (const field of Object.keys(expected) as (keyof typeof expected)[]) {
    if (expected[field] !== row[field]) found.push({ field, expected: expected[field], actual: row[field] });
  }
  return found;
}

/**
 * Replays every standing-order stream (`standingOrder-<id>`) with the domain's evolve — the fold the decider and the
 * runner use — and compares each row of rm.standing_orders with it, as of the read models' own checkpoint (read in
 * one REPEATABLE READ snapshot, so the live projector may keep writing meanwhile). Reports one mismatch per order
 * that differs, is missing from the read model, or is in it without a stream.
 */
export async function verifyStandingOrders(options: VerifyStandingOrdersOptions): Promise<VerifyStandingOrdersResult> {
  const tables = readModelTables(options.schema ?? READ_MODEL_SCHEMA);
  const name = options.name ?? DEFAULT_PROJECTOR_NAME;
  const client = await options.pool.connect();
  let position: string | null;
  let rows: OrderRow[];
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const checkpoint = await client.query<{ position: string | null }>(`SELECT position FROM ${tables.checkpoint} WHERE name = $1`, [name]);
    position = checkpoint.rows[0]?.position ?? null;
    const result = await client.query<OrderRow>(
      `SELECT id, payer_id, status, from_account, account_number, recipient_name, amount_cents::text AS amount_cents, description,
              frequency, day, first_date::text AS first_date, end_date::text AS end_date, payment_count,
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
              last_occurrence_date::text AS last_occurrence_date, last_occurrence_status
         FROM ${tables.standingOrders}`,
    );
    rows = result.rows;
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }

  const orders = await replayStandingOrders(options.store, positionOrUndefined(position), options.batchSize ?? 2000);
  const rowsById = new Map(rows.map((row) => [row.id, row]));
  const mismatches: StandingOrderMismatch[] = [];
  let checked = 0;
  for (const [orderId, state] of orders) {
    if (state.status === 'none') continue;
    checked += 1;
    const stream = `${STREAM_PREFIX}${orderId}`;
    const row = rowsById.get(orderId);
    rowsById.delete(orderId);
    if (!row) {
      mismatches.push({ orderId, stream, problem: 'missing', fields: [] });
      continue;
    }
    const fields = differences(expectedRow(state), row);
    if (fields.length > 0) mismatches.push({ orderId, stream, problem: 'fields', fields });
  }
  for (const orderId of rowsById.keys()) {
    checked += 1;
    mismatches.push({ orderId, stream: `${STREAM_PREFIX}${orderId}`, problem: 'extra', fields: [] });
  }
  return { ok: mismatches.length === 0, checked, mismatches };
}

/** Folds every standing-order stream of the log up to `until` (inclusive), keyed by order id (the stream's suffix). */
async function replayStandingOrders(store: EventStore, until: Position | undefined, batchSize: number): Promise<Map<string, StandingOrderState>> {
  const orders = new Map<string, StandingOrderState>();
  if (!until) return orders;
  let after: Position | undefined;
  for (;;) {
    const batch = await store.readAll({ after, limit: batchSize });
    if (batch.length === 0) return orders;
    for (const recorded of batch) {
      if (comparePositions(recorded.position, until) > 0) return orders;
      // Another type in such a stream is not the decider's: the chain and schema checks of the audit name it.
      if (!recorded.streamId.startsWith(STREAM_PREFIX) || !STANDING_ORDER_EVENT_TYPES.has(recorded.type)) continue;
      const schemaVersion = typeof recorded.metadata.schemaVersion === 'number' ? recorded.metadata.schemaVersion : undefined;
      const event = parseEvent(recorded.type, recorded.data, schemaVersion) as StandingOrderEvent;
      const orderId = recorded.streamId.slice(STREAM_PREFIX.length).toLowerCase();
      orders.set(orderId, evolveStandingOrder(orders.get(orderId) ?? initialStandingOrderState, event));
    }
    after = batch.at(-1)!.position;
  }
}
