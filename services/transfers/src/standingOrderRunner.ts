import { deterministicId, type CommandHandler } from '@bank/commands';
import {
  addDays,
  isDomainError,
  pendingOccurrence,
  standingOrderDecider,
  streams,
  type RecordOccurrence,
  type StandingOrder,
  type StandingOrderState,
} from '@bank/domain';
import { utcDate, type Clock, type Logger } from '@bank/platform';
import type pg from 'pg';
import { requestTransfer, type TransferRequestDeps } from './requestTransfer';
import type { BusinessDateSource } from './transferSteps';

/**
 * The standing-order runner: the close of business's first step (@bank/books' COB) settles, for the date it closes,
 * every occurrence due up to that date of every active order, oldest first; creating an order whose first date is the
 * business date, or resuming one, settles its due occurrences at once through the same code.
 * An occurrence is paid through the same path as a one-off transfer (requestTransfer, the pin authorised when the
 * order was created), with a transfer id derived from the order and the date — so a crash between the payment and
 * its record, a restart or a second runner pays it once: the transfer's debit is already recorded and the request
 * answers without a new one, and the order's record of the date is then added (or is there already).
 * A refusal (not enough balance, blocked, …) is recorded as failed; three in a row suspend the order (the domain).
 * Occurrences due more than `catchUpDays` before today (downtime) are recorded as missed, not paid. Every payment
 * carries the business date it is settled for (its debit's and credit's journal lines belong to that day).
 */
export interface StandingOrderRunnerDeps {
  readonly commands: CommandHandler;
  /** The read models (rm.standing_orders: which orders to look at) and the recipient look-up. */
  readonly pool: pg.Pool;
  /**
   * How the occurrences' transfers are requested (requestTransfer's deps; the runner adds its commands, pool and
   * clock). No pin keys: occurrences were authorised with the pin when the order was created.
   */
  readonly transfer: Omit<TransferRequestDeps, 'now' | 'commands' | 'pool' | 'pinKeys' | 'businessDate'>;
  readonly clock: Clock;
  /** Occurrences due up to this many days before today are paid late; older ones are missed. */
  readonly catchUpDays: number;
  /** The open business date (@bank/books' BusinessCalendar.current); default the clock's UTC date. */
  readonly businessDate?: BusinessDateSource;
  readonly logger?: Logger;
}

/** Which occurrences a run settles. */
export interface StandingOrderRun {
  /** Occurrences due up to this date (included) are settled, with it as their business date. */
  readonly through: string;
  /** The date catch-up counts from: older than catchUpDays before it is missed. */
  readonly today: string;
}

export interface OccurrenceOutcome {
  readonly orderId: string;
  readonly date: string;
  readonly outcome: RecordOccurrence['outcome'];
}

/** The transfer id of an order's occurrence. */
export function occurrenceTransferId(orderId: string, date: string): string {
  return deterministicId(`standing-order:${orderId}:${date}`);
}

async function readOrder(deps: StandingOrderRunnerDeps, orderId: string): Promise<StandingOrderState> {
  return deps.commands.read(standingOrderDecider, streams.standingOrder(orderId), (state) => state);
}

async function record(deps: StandingOrderRunnerDeps, order: StandingOrder, date: string, outcome: RecordOccurrence['outcome']): Promise<void> {
  const command: RecordOccurrence = { type: 'RecordOccurrence', date, outcome, now: deps.clock.now().toISOString() };
  await deps.commands.execute({
    decider: standingOrderDecider,
    streamId: streams.standingOrder(order.orderId),
    decide: (state) => standingOrderDecider.decide(command, state),
    context: {
      commandId: `standing-order:${order.orderId}:${date}:record`,
      metadata: { actorId: order.payerId, actorRole: 'system', correlationId: order.orderId },
    },
    commandType: 'RecordOccurrence',
  });
}

async function pay(deps: StandingOrderRunnerDeps, order: StandingOrder, date: string, businessDate: string): Promise<RecordOccurrence['outcome']> {
  const transferId = occurrenceTransferId(order.orderId, date);
  try {
    await requestTransfer(
      { ...deps.transfer, commands: deps.commands, pool: deps.pool, now: () => deps.clock.now(), businessDate: async () => businessDate },
      {
        userId: order.payerId,
        input: {
          from: order.from,
          amountCents: order.amountCents,
          accountNumber: order.accountNumber,
          bankName: order.bankName,
          routingNumber: order.routingNumber,
          accountType: order.accountType,
          to: order.recipientName,
          // Marked in the transaction list as coming from the order.
          description: `Standing order: ${order.description || order.recipientName || order.accountNumber}`,
          paymentPin: undefined,
        },
        authorised: { standingOrderId: order.orderId, transferId },
      },
    );
    return { status: 'paid', transferId };
  } catch (error) {
    if (isDomainError(error)) return { status: 'failed', reason: error.message };
    throw error;
  }
}

/** The run of now: through the open business date, catch-up counted from it. */
async function runOfNow(deps: StandingOrderRunnerDeps): Promise<StandingOrderRun> {
  const date = (await deps.businessDate?.()) ?? utcDate(deps.clock.now());
  return { through: date, today: date };
}

/** Settles the due occurrences of one order (none unless it is active), oldest first: through the business date now, or `run`'s. */
export async function runStandingOrder(deps: StandingOrderRunnerDeps, orderId: string, run?: StandingOrderRun): Promise<OccurrenceOutcome[]> {
  const { through, today } = run ?? (await runOfNow(deps));
  const outcomes: OccurrenceOutcome[] = [];
  for (;;) {
    const state = await readOrder(deps, orderId);
    if (state.status !== 'active') return outcomes;
    const date = pendingOccurrence(state);
    if (date === undefined || date > through) return outcomes;
    const outcome: RecordOccurrence['outcome'] = date < addDays(today, -deps.catchUpDays) ? { status: 'missed' } : await pay(deps, state, date, through);
    await record(deps, state, date, outcome);
    outcomes.push({ orderId, date, outcome });
    deps.logger?.info({ orderId, date, outcome: outcome.status }, 'standing order occurrence settled');
  }
}

/**
 * The COB's standing-order step for a date: every active order listed in rm.standing_orders, its occurrences due up
 * to `run.through`. An order that fails is logged and the others go on; then the step fails (it is not recorded as
 * done, and the COB runs it again: orders already settled are skipped, each occurrence is paid once).
 */
export async function runDueStandingOrders(deps: StandingOrderRunnerDeps, run?: StandingOrderRun): Promise<OccurrenceOutcome[]> {
  const due = run ?? (await runOfNow(deps));
  const { rows } = await deps.pool.query<{ id: string }>(`SELECT id FROM rm.standing_orders WHERE status = 'active' ORDER BY id`);
  const outcomes: OccurrenceOutcome[] = [];
  const failures: unknown[] = [];
  for (const { id } of rows) {
    try {
      outcomes.push(...(await runStandingOrder(deps, id, due)));
    } catch (error) {
      failures.push(error);
      deps.logger?.warn({ err: error, orderId: id }, 'standing order not run; the COB runs the step again');
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, `${failures.length} standing order(s) could not be run for ${due.through}`);
  return outcomes;
}
