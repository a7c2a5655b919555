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
import { acquireLeaderLock, sleep, utcDate, type Clock, type Logger } from '@bank/platform';
import type pg from 'pg';
import { requestTransfer, type TransferRequestDeps } from './requestTransfer';

/**
 * The standing-order runner: on each tick it settles every due occurrence of every active order, oldest first.
 * An occurrence is paid through the same path as a one-off transfer (requestTransfer, the pin authorised when the
 * order was created), with a transfer id derived from the order and the date — so a crash between the payment and
 * its record, a restart or a second runner pays it once: the transfer's debit is already recorded and the request
 * answers without a new one, and the order's record of the date is then added (or is there already).
 * A refusal (not enough balance, blocked, …) is recorded as failed; three in a row suspend the order (the domain).
 * Occurrences due more than `catchUpDays` before today (downtime) are recorded as missed, not paid.
 */
export interface StandingOrderRunnerDeps {
  readonly commands: CommandHandler;
  /** The read models (rm.standing_orders: which orders to look at) and the recipient look-up. */
  readonly pool: pg.Pool;
  /**
   * How the occurrences' transfers are requested (requestTransfer's deps; the runner adds its commands, pool and
   * clock). No pin keys: occurrences were authorised with the pin when the order was created.
   */
  readonly transfer: Omit<TransferRequestDeps, 'now' | 'commands' | 'pool' | 'pinKeys'>;
  readonly clock: Clock;
  /** Occurrences due up to this many days before today are paid late; older ones are missed. */
  readonly catchUpDays: number;
  readonly logger?: Logger;
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

async function pay(deps: StandingOrderRunnerDeps, order: StandingOrder, date: string): Promise<RecordOccurrence['outcome']> {
  const transferId = occurrenceTransferId(order.orderId, date);
  try {
    await requestTransfer(
      { ...deps.transfer, commands: deps.commands, pool: deps.pool, now: () => deps.clock.now() },
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

/** Settles the due occurrences of one order (none unless it is active), oldest first. */
export async function runStandingOrder(deps: StandingOrderRunnerDeps, orderId: string): Promise<OccurrenceOutcome[]> {
  const outcomes: OccurrenceOutcome[] = [];
  for (;;) {
    const state = await readOrder(deps, orderId);
    if (state.status !== 'active') return outcomes;
    const date = pendingOccurrence(state);
    const today = utcDate(deps.clock.now());
    if (date === undefined || date > today) return outcomes;
    const outcome: RecordOccurrence['outcome'] = date < addDays(today, -deps.catchUpDays) ? { status: 'missed' } : await pay(deps, state, date);
    await record(deps, state, date, outcome);
    outcomes.push({ orderId, date, outcome });
    deps.logger?.info({ orderId, date, outcome: outcome.status }, 'standing order occurrence settled');
  }
}

/** One tick: every active order listed in rm.standing_orders. An order that fails is logged; the others go on. */
export async function runDueStandingOrders(deps: StandingOrderRunnerDeps): Promise<OccurrenceOutcome[]> {
  const { rows } = await deps.pool.query<{ id: string }>(`SELECT id FROM rm.standing_orders WHERE status = 'active' ORDER BY id`);
  const outcomes: OccurrenceOutcome[] = [];
  for (const { id } of rows) {
    try {
      outcomes.push(...(await runStandingOrder(deps, id)));
    } catch (error) {
      deps.logger?.warn({ err: error, orderId: id }, 'standing order not run; it is tried again at the next tick');
    }
  }
  return outcomes;
}

export interface StandingOrderRunnerOptions extends StandingOrderRunnerDeps {
  readonly tickMs: number;
  readonly leaderRetryMs?: number;
}

export interface StandingOrderRunnerHandle {
  /** Resolves when this instance leads (and has run its first tick) or waits as a standby. */
  readonly ready: Promise<void>;
  status(): 'starting' | 'standby' | 'leader' | 'stopped';
  /** Runs a tick now (as the leader; a standby runs none and answers []). */
  tick(): Promise<OccurrenceOutcome[]>;
  stop(): Promise<void>;
}

/** The runner as a service: one active instance bank-wide (a PostgreSQL advisory lock), a tick at start and every tickMs. */
export function startStandingOrderRunner(options: StandingOrderRunnerOptions): StandingOrderRunnerHandle {
  const stopping = new AbortController();
  let state: ReturnType<StandingOrderRunnerHandle['status']> = 'starting';
  let running: Promise<OccurrenceOutcome[]> | undefined;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const tick = (): Promise<OccurrenceOutcome[]> => {
    if (state !== 'leader') return Promise.resolve([]);
    // One tick at a time: a tick asked for while one runs waits for it, then runs again (it may have missed new orders).
    const next = (running ?? Promise.resolve([])).catch(() => []).then(() => runDueStandingOrders(options));
    running = next;
    return next;
  };

  async function lead(lost: AbortSignal): Promise<void> {
    await tick().catch((error: unknown) => options.logger?.error({ err: error }, 'standing-order tick failed'));
    markReady();
    const stop = AbortSignal.any([stopping.signal, lost]);
    while (!stop.aborted) {
      await sleep(options.tickMs, stop);
      if (stopping.signal.aborted || lost.aborted) break;
      await tick().catch((error: unknown) => options.logger?.error({ err: error }, 'standing-order tick failed'));
    }
  }

  const done = (async () => {
    while (!stopping.signal.aborted) {
      const session = await acquireLeaderLock({
        connection: options.pool.options,
        lockClass: 'bank.standingOrders',
        name: 'runner',
        retryMs: options.leaderRetryMs ?? 1_000,
        signal: stopping.signal,
        onStandby: () => {
          state = 'standby';
          markReady();
        },
      });
      if (!session) break;
      state = 'leader';
      try {
        await lead(session.lost);
      } finally {
        state = 'standby';
        await running?.catch(() => undefined);
        await session.release();
      }
    }
    state = 'stopped';
    markReady();
  })().catch((error: unknown) => {
    state = 'stopped';
    markReady();
    options.logger?.error({ err: error }, 'standing-order runner stopped');
  });

  return {
    ready,
    status: () => state,
    tick,
    async stop() {
      stopping.abort();
      await done;
    },
  };
}
