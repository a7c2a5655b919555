import { deterministicId, type CommandContext, type CommandHandler } from '@bank/commands';
import { accountDecider, openAccountState, streams, type AccountCommand, type AccountEvent, type AccountKind } from '@bank/domain';
import { comparePositions, type EventStore, type Position, type StreamAppend, type StreamAppendOutcome } from '@bank/eventstore';

/** One account's payment of the month, as the COB's interest step decides it. */
export interface InterestPaymentRequest {
  readonly userId: string;
  readonly command: Extract<AccountCommand, { type: 'PayInterest' }>;
  readonly context: CommandContext;
}

/** The transaction id of an account's interest payment for a month (one per account and month, whoever pays it). */
export function interestTransactionId(userId: string, account: string, month: string): string {
  return deterministicId(`interest:${userId}:${account}:${month}`);
}

/** An account's payment for a month: the PayInterest command and its context (the command id the event ids derive from). */
export function interestPayment(
  owed: { readonly userId: string; readonly account: AccountKind; readonly amountCents: number; readonly accruedUnits: string; readonly carryUnits: string },
  month: string,
  businessDate: string,
  now: string,
): InterestPaymentRequest {
  return {
    userId: owed.userId,
    command: {
      type: 'PayInterest',
      transactionId: interestTransactionId(owed.userId, owed.account, month),
      account: owed.account,
      amountCents: owed.amountCents,
      month,
      accruedUnits: owed.accruedUnits,
      carryUnits: owed.carryUnits,
      businessDate,
      now,
    },
    context: { commandId: `interest:${owed.userId}:${owed.account}:${month}`, metadata: { actorRole: 'system', correlationId: `cob:${businessDate}` } },
  };
}

/**
 * One payment through the command handler (the path without bulk appends, and the bulk path's fallback). `fresh`
 * brings the handler's state of the stream up to date first: after a bulk append it may be stale, and a payment
 * already stored must be decided a no-op on the real head, not re-appended (a duplicate) on a stale one.
 */
export async function payInterestByCommand(commands: CommandHandler, payment: InterestPaymentRequest, fresh = false): Promise<Position | undefined> {
  const streamId = streams.account(payment.userId);
  if (fresh) await commands.read(accountDecider, streamId, () => undefined, { fresh: true });
  const result = await commands.execute({
    decider: accountDecider,
    streamId,
    decide: (state) => accountDecider.decide(payment.command, state),
    context: payment.context,
    commandType: payment.command.type,
  });
  return result.position;
}

/** The later of two positions (either may be missing). */
export function laterPosition(a: Position | undefined, b: Position | undefined): Position | undefined {
  if (!a) return b;
  if (!b) return a;
  return comparePositions(a, b) >= 0 ? a : b;
}

/** The store methods the bulk path needs (PostgreSQL's). */
export type BulkStore = Required<Pick<EventStore, 'streamTails' | 'appendMany'>>;

export function bulkStoreOf(store: EventStore): BulkStore | undefined {
  return store.streamTails && store.appendMany ? { streamTails: store.streamTails.bind(store), appendMany: store.appendMany.bind(store) } : undefined;
}

/**
 * The tails' queries for a chunk: the last money event of each account kind paid in it (its balanceAfterCents is
 * that account's balance). Only the kinds paid are asked for: a payment's credit depends on its own account's balance
 * alone, and each query is a walk back through the stream (to its start when the stream has no such event), so a
 * chunk of savings payments asks for savings only.
 */
function balanceQueries(requests: readonly InterestPaymentRequest[]): AccountKind[] {
  const kinds = new Set(requests.map((request) => request.command.account));
  return (['checking', 'savings'] as const).filter((kind) => kinds.has(kind));
}

function balanceOf(event: { data: Record<string, unknown> } | undefined): number {
  const balance = event?.data.balanceAfterCents;
  return typeof balance === 'number' ? balance : 0;
}

export interface BulkOutcome {
  /** Payments appended or found already stored. */
  readonly settled: number;
  /** Payments the bulk path could not make (the stream moved, or is missing): to be made one by one. */
  readonly fallback: readonly InterestPaymentRequest[];
  /** The latest position of the payments settled (appended, or found stored), for a wait on the read models. */
  readonly last?: Position;
}

/**
 * Pays a chunk of accounts in two round trips: the account streams' tails in one read (each stream's last event and
 * its last money event of each account kind, whose balanceAfterCents is the balance), each payment decided by the
 * account's decider on that minimal state and wrapped exactly as the command handler wraps it (same ids, metadata
 * and hash chain), and every stream's append in one call, each with the revision read (a second call for the
 * customers owed on both accounts: see appendInRounds). Each payment is its own single-event append (a customer
 * owed on both accounts gets two, the second expecting the first), so that an id
 * already stored (paid before a crash) is a whole duplicate, a no-op; a conflict (the customer moved money
 * meanwhile) stores nothing and the payment goes back to the caller, for the command handler.
 */
export async function payInterestInBulk(store: BulkStore, commands: CommandHandler, requests: readonly InterestPaymentRequest[]): Promise<BulkOutcome> {
  const plan = await planInterestPayments(store, commands, requests);
  return settleInterestPayments(plan, await appendInRounds(store, plan.appends));
}

/**
 * The plan's appends in as few appendMany calls as keep every call's streams distinct (the store's set-based path):
 * a stream's first payment in the first call, its second (expecting the first) in the next — sent only when the
 * first was appended by this call. Its hash chains on the first as this process wrapped it: after a conflict the
 * stream is not where the plan thought, and after a duplicate the stored first may be another run's (its own
 * occurredAt, so its own hash), so the second is then answered a conflict without being sent, for the command
 * handler to decide on the stream as it is. Outcomes in the appends' order.
 */
export async function appendInRounds(store: Pick<BulkStore, 'appendMany'>, appends: readonly StreamAppend[]): Promise<StreamAppendOutcome[]> {
  const rounds: number[][] = [];
  const seen = new Map<string, number>();
  appends.forEach((append, index) => {
    const round = seen.get(append.stream) ?? 0;
    seen.set(append.stream, round + 1);
    (rounds[round] ??= []).push(index);
  });
  const outcomes = new Array<StreamAppendOutcome>(appends.length);
  const broken = new Set<string>();
  for (const round of rounds) {
    const sent = round.filter((index) => !broken.has(appends[index]!.stream));
    for (const index of round) if (broken.has(appends[index]!.stream)) outcomes[index] = { kind: 'conflict', actualRevision: undefined };
    const answered = sent.length > 0 ? await store.appendMany(sent.map((index) => appends[index]!)) : [];
    sent.forEach((index, at) => {
      const outcome = answered[at]!;
      outcomes[index] = outcome;
      if (outcome.kind !== 'appended') broken.add(appends[index]!.stream);
    });
  }
  return outcomes;
}

/** The payments of a chunk as appends on the streams' tails (each payment's append at `appends[i]` is `planned[i]`'s). */
export interface InterestPaymentPlan {
  readonly appends: readonly StreamAppend[];
  readonly planned: readonly InterestPaymentRequest[];
  /** Payments that cannot be decided on the tails (a stream missing, a refusal): for the command handler. */
  readonly fallback: readonly InterestPaymentRequest[];
}

/** Reads the tails of the chunk's streams (one query) and decides and wraps every payment on them. */
export async function planInterestPayments(store: Pick<BulkStore, 'streamTails'>, commands: CommandHandler, requests: readonly InterestPaymentRequest[]): Promise<InterestPaymentPlan> {
  const streamIds = requests.map((request) => streams.account(request.userId));
  const kinds = balanceQueries(requests);
  const tails = await store.streamTails(streamIds, kinds.map((account) => ({ account })));
  const fallback: InterestPaymentRequest[] = [];
  const appends: StreamAppend[] = [];
  const appended: InterestPaymentRequest[] = [];
  // Each stream's head as the chunk's payments move it: revision, hash, and the balances of the kinds paid (the others
  // are never read: see balanceQueries).
  const heads = new Map<string, { revision: bigint; lastHash: string | null; balances: { checking: number; savings: number } }>();

  requests.forEach((request, index) => {
    const streamId = streamIds[index]!;
    let head = heads.get(streamId);
    if (!head) {
      const tail = tails.get(streamId);
      if (!tail) {
        fallback.push(request);
        return;
      }
      const hash = tail.last.metadata.hash;
      const balance = (kind: AccountKind) => (kinds.includes(kind) ? balanceOf(tail.matches[kinds.indexOf(kind)]) : 0);
      head = { revision: tail.last.revision, lastHash: typeof hash === 'string' ? hash : null, balances: { checking: balance('checking'), savings: balance('savings') } };
      heads.set(streamId, head);
    }
    // The decider on the least state a payment needs: opened, with its balances. Whether it was paid already is the
    // store's to say (the payment's id is derived from the account and the month).
    const state = openAccountState(request.userId, '');
    state.balances.checking = head.balances.checking;
    state.balances.savings = head.balances.savings;
    let events: readonly AccountEvent[];
    try {
      events = accountDecider.decide(request.command, state);
    } catch {
      fallback.push(request);
      return;
    }
    if (events.length !== 1) {
      fallback.push(request);
      return;
    }
    const newEvents = commands.wrapEvents(streamId, events, { revision: head.revision, lastHash: head.lastHash }, request.context);
    appends.push({ stream: streamId, events: newEvents, expectedRevision: head.revision });
    appended.push(request);
    const credit = events[0]!;
    if (credit.type === 'AccountCredited') head.balances[credit.data.account] = credit.data.balanceAfterCents;
    head.revision += 1n;
    head.lastHash = String(newEvents[0]!.metadata!.hash);
  });

  return { appends, planned: appended, fallback };
}

/** What the appends did: stored (or found stored) payments are settled, the others go back for the command handler. */
export function settleInterestPayments(plan: InterestPaymentPlan, outcomes: readonly StreamAppendOutcome[]): BulkOutcome {
  const fallback = [...plan.fallback];
  let settled = 0;
  let last: Position | undefined;
  outcomes.forEach((outcome, index) => {
    if (outcome.kind === 'appended' || outcome.kind === 'duplicate') {
      settled += 1;
      last = laterPosition(last, outcome.position);
    } else fallback.push(plan.planned[index]!);
  });
  return { settled, fallback, ...(last ? { last } : {}) };
}
