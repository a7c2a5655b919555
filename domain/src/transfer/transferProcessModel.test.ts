import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AccountEvent } from '../account/accountDecider';
import { accountDecider } from '../account/accountDecider';
import { emptyAccountHistory, evolveAccountHistory } from '../account/accountHistory';
import { foldEvents } from '../decider';
import { expectValidEvents } from '../testing/deciderSpecification';
import { ADMIN_ID, CUSTOMER_ID, LATER, NOW, opened, PAYEE_ACCOUNT_NUMBER, PAYEE_ID, uuid } from '../testing/fixtures';
import type { TransferEvent, TransferState } from './transferDecider';
import { decideTransferRecord, evolveTransfer, initialTransferState } from './transferDecider';
import { achCycleDecider, type AchCycleEvent } from '../ach/cycle/achCycleDecider';
import { returnPayerCommands, returnRecordCommand } from '../ach/cycle/achActions';
import type { TransferStep } from './transferProcessModel';
import { isOutcomeAlreadyCommitted, isPayeeGone, nextTransferStep, PAYEE_ACCOUNT_CLOSED_REASON, transferRequestOf, transferStepActions } from './transferProcessModel';

/**
 * The process model run by a small interpreter over in-memory streams, as the services' transfer process runs it over
 * the event store: a step's actions in order, each decided by its own stream's decider; a refused payee credit turns
 * into 'fail', a refused outcome ('transaction_final') follows the outcome already committed.
 */
const TRANSFER = uuid(600);
const DEBIT = uuid(601);
const CREDIT = uuid(602);
const REFUND = uuid(603);

class Streams {
  readonly events = new Map<string, (AccountEvent | TransferEvent | AchCycleEvent)[]>();
  /** Actions run so far; `crashAfter` stops the run after that many (a crash between two appends). */
  actions = 0;
  crashAfter = Number.POSITIVE_INFINITY;

  list(stream: string): (AccountEvent | TransferEvent | AchCycleEvent)[] {
    let list = this.events.get(stream);
    if (!list) this.events.set(stream, (list = []));
    return list;
  }
  account(userId: string) {
    return foldEvents(accountDecider.evolve, accountDecider.initialState, this.list(`account-${userId}`) as AccountEvent[]);
  }
  history(userId: string) {
    return foldEvents(evolveAccountHistory, emptyAccountHistory(), this.list(`account-${userId}`) as AccountEvent[]);
  }
  transfer(): TransferState {
    return foldEvents(evolveTransfer, initialTransferState, this.list(`transfer-${TRANSFER}`) as TransferEvent[]);
  }
  ach() {
    return foldEvents(achCycleDecider.evolve, achCycleDecider.initialState, this.list('achFiles') as AchCycleEvent[]);
  }
  append(stream: string, events: readonly (AccountEvent | TransferEvent | AchCycleEvent)[]): void {
    if (this.actions >= this.crashAfter) throw new Crash();
    this.actions += 1;
    expectValidEvents([...events]);
    this.list(stream).push(...events);
  }
}

class Crash extends Error {}

function setUp(options: { internal: boolean; payee?: 'open' | 'closed'; toSelf?: boolean }) {
  const streams = new Streams();
  const payeeId = options.toSelf ? CUSTOMER_ID : PAYEE_ID;
  streams.append(`account-${CUSTOMER_ID}`, [opened()]);
  streams.append(`account-${CUSTOMER_ID}`, [
    { type: 'StaffTransactionPosted', data: { transactionId: uuid(900), account: 'savings', amountCents: 10000, direction: 'credit', description: 'Deposit', status: 'completed', occurredAt: NOW, balanceAfterCents: 10000, adminId: ADMIN_ID, postedAt: NOW } },
  ]);
  if (!options.toSelf) {
    streams.append(`account-${PAYEE_ID}`, [opened(PAYEE_ID, PAYEE_ACCOUNT_NUMBER)]);
    if (options.payee === 'closed') streams.append(`account-${PAYEE_ID}`, [{ type: 'AccountClosed', data: { adminId: ADMIN_ID, closedAt: NOW } }]);
  }
  const debit = accountDecider.decide(
    {
      type: 'DebitForTransfer',
      transactionId: DEBIT,
      transferId: TRANSFER,
      account: 'savings',
      amountCents: 2500,
      description: 'Dinner',
      intent: {
        internal: options.internal,
        ...(options.internal ? { payeeId, creditTransactionId: CREDIT } : {}),
        refundTransactionId: REFUND,
        accountNumber: options.internal ? PAYEE_ACCOUNT_NUMBER : '9876543210',
        bankName: options.internal ? 'Summit Bank' : 'Other Bank',
        routingNumber: '021000021',
        accountType: 'checking',
        recipientName: 'Grace Hopper',
        description: 'Dinner',
        requestedAt: NOW,
      },
      now: NOW,
    },
    streams.account(CUSTOMER_ID),
  );
  streams.append(`account-${CUSTOMER_ID}`, debit);
  const event = debit[0];
  if (event?.type !== 'AccountDebited') throw new Error('expected the debit');
  const request = transferRequestOf(CUSTOMER_ID, event.data);
  if (!request) throw new Error('the debit carries the intent');
  streams.actions = 0;
  return { streams, request };
}

type Setup = ReturnType<typeof setUp>;

/** Runs one step's actions; returns the step to go on with. */
function runStep({ streams, request }: Setup, step: Exclude<TransferStep, 'done'>, options: { settlement?: 'accept' | 'reject'; reason?: string } = {}): TransferStep {
  const payeeStream = `account-${request.payeeId}`;
  for (const action of transferStepActions(step, request, LATER, { reason: options.reason })) {
    try {
      if (action.stream === 'transfer') {
        streams.append(`transfer-${TRANSFER}`, decideTransferRecord(action.commands, streams.transfer()));
      } else if (action.stream === 'ach') {
        streams.append('achFiles', achCycleDecider.decide(action.command, streams.ach()));
      } else {
        const userId = action.stream === 'payer' ? request.payerId : request.payeeId!;
        streams.append(action.stream === 'payer' ? `account-${userId}` : payeeStream, accountDecider.decide(action.command, streams.account(userId)));
      }
    } catch (error) {
      if (step === 'credit' && action.stream === 'payee' && isPayeeGone(error)) return 'fail';
      if (action.stream === 'payer' && isOutcomeAlreadyCommitted(error)) return step === 'settle' ? 'fail' : 'settle';
      throw error;
    }
  }
  // A queued external transfer waits for its file and the COB of its effective date (the settle step).
  if (step === 'send') return 'settle';
  return nextTransferStep(streams.transfer(), request);
}

/** Runs the process to its end, the settlement answering `settlement`. */
function runToEnd(setup: Setup, settlement: 'accept' | 'reject' = 'accept'): void {
  let step = nextTransferStep(setup.streams.transfer(), setup.request);
  let reason: string | undefined;
  for (let guard = 0; step !== 'done'; guard += 1) {
    if (guard > 10) throw new Error('the process does not end');
    if (step === 'settle' && settlement === 'reject') {
      step = runStep(setup, 'fail', { reason: 'Rejected by the recipient bank' });
      continue;
    }
    const next = runStep(setup, step, { reason });
    reason = next === 'fail' && step === 'credit' ? PAYEE_ACCOUNT_CLOSED_REASON : undefined;
    step = next;
  }
  // The COB settles a file's entries until it records the file settled: a settlement cut short after its record is
  // run again (the payer's completion is then all that is missing).
  if (!setup.request.internal && setup.streams.transfer().phase === 'settled') runStep(setup, 'settle');
}

const types = (events: readonly { type: string }[]) => events.map((e) => e.type);

describe('the transfer process after the debit', () => {
  it('reads the request from the debit', () => {
    const { request } = setUp({ internal: true });
    expect(request).toMatchObject({ transferId: TRANSFER, payerId: CUSTOMER_ID, payeeId: PAYEE_ID, debitTransactionId: DEBIT, creditTransactionId: CREDIT, refundTransactionId: REFUND, amountCents: 2500, internal: true });
    expect(nextTransferStep(initialTransferState, request)).toBe('credit');
  });

  it('internal: credits the payee, completes the debit, and records the transfer', () => {
    const setup = setUp({ internal: true });
    runToEnd(setup);
    const { streams } = setup;
    expect(streams.account(PAYEE_ID)).toMatchObject({ balances: { checking: 2500 } });
    expect(streams.history(CUSTOMER_ID).transactions.get(DEBIT)?.status).toBe('completed');
    expect(types(streams.list(`transfer-${TRANSFER}`))).toEqual(['TransferRequested', 'TransferDebited', 'TransferCredited']);
    expect(streams.transfer().phase).toBe('credited');
  });

  it('internal to one’s own other account: credited on the payer’s own stream', () => {
    const setup = setUp({ internal: true, toSelf: true });
    runToEnd(setup);
    expect(setup.streams.account(CUSTOMER_ID)).toMatchObject({ balances: { savings: 7500, checking: 2500 } });
    expect(setup.streams.transfer().phase).toBe('credited');
  });

  it('internal to a closed account: fails, refunds the payer, and the debit shows failed', () => {
    const setup = setUp({ internal: true, payee: 'closed' });
    runToEnd(setup);
    const { streams } = setup;
    expect(streams.account(CUSTOMER_ID)).toMatchObject({ balances: { savings: 10000 } });
    expect(streams.account(PAYEE_ID)).toMatchObject({ balances: { checking: 0 } });
    expect(streams.history(CUSTOMER_ID).transactions.get(DEBIT)?.status).toBe('failed');
    expect(types(streams.list(`transfer-${TRANSFER}`))).toEqual(['TransferRequested', 'TransferDebited', 'TransferFailed', 'TransferRefunded']);
    expect(streams.list(`transfer-${TRANSFER}`)[2]).toMatchObject({ data: { reason: PAYEE_ACCOUNT_CLOSED_REASON } });
  });

  it('external: queued for the next ACH file, then settled by the COB of its effective date', () => {
    const setup = setUp({ internal: false });
    expect(runStep(setup, 'send')).toBe('settle');
    expect(types(setup.streams.list('achFiles'))).toEqual(['AchEntryQueued']);
    expect(setup.streams.ach().waiting.get(TRANSFER)).toMatchObject({ amountCents: 2500, transactionCode: 22, routingNumber: '021000021', accountNumber: '9876543210' });
    expect(setup.streams.history(CUSTOMER_ID).transactions.get(DEBIT)?.status).toBe('pending');
    // queued twice (a re-run after a crash): still one entry
    expect(runStep(setup, 'send')).toBe('settle');
    expect(types(setup.streams.list('achFiles'))).toEqual(['AchEntryQueued']);
    runToEnd(setup);
    expect(types(setup.streams.list(`transfer-${TRANSFER}`))).toEqual(['TransferRequested', 'TransferDebited', 'TransferSettled']);
    expect(setup.streams.history(CUSTOMER_ID).transactions.get(DEBIT)?.status).toBe('completed');
  });

  function applyReturn(setup: Setup): void {
    const { streams, request } = setup;
    streams.append(`transfer-${TRANSFER}`, decideTransferRecord([returnRecordCommand('R01', LATER)], streams.transfer()));
    const record = streams.transfer();
    const afterSettlement = record.phase !== 'none' && record.returnedAfterSettlement === true;
    for (const command of returnPayerCommands(request, 'R01', afterSettlement, LATER, '2025-06-02')) {
      streams.append(`account-${CUSTOMER_ID}`, accountDecider.decide(command, streams.account(CUSTOMER_ID)));
    }
  }

  it('external, returned before settlement: failed, refunded from ach-outbound, and the COB no longer settles it', () => {
    const setup = setUp({ internal: false });
    runStep(setup, 'send');
    applyReturn(setup);
    expect(types(setup.streams.list(`transfer-${TRANSFER}`))).toEqual(['TransferRequested', 'TransferDebited', 'TransferFailed', 'TransferRefunded']);
    expect(setup.streams.list(`transfer-${TRANSFER}`)[2]).toMatchObject({ data: { reason: 'Returned: R01 Insufficient funds', returnCode: 'R01', afterSettlement: false } });
    const refund = setup.streams.list(`account-${CUSTOMER_ID}`).at(-1);
    expect(refund).toMatchObject({ type: 'AccountCredited', data: { clearing: 'ach-outbound', description: 'Returned: R01 Insufficient funds', refundOf: DEBIT } });
    expect(setup.streams.history(CUSTOMER_ID).transactions.get(DEBIT)?.status).toBe('failed');
    expect(setup.streams.account(CUSTOMER_ID)).toMatchObject({ balances: { savings: 10000 } });
    expect(nextTransferStep(setup.streams.transfer(), setup.request)).toBe('done');
    // the COB's settlement, had it raced the return, is refused by the record (the commit point)
    expect(() => decideTransferRecord([{ type: 'RecordSettlement', now: LATER }], setup.streams.transfer())).toThrow();
    // the same return again: nothing more
    applyReturn(setup);
    expect(setup.streams.account(CUSTOMER_ID)).toMatchObject({ balances: { savings: 10000 } });
  });

  it('external, returned after settlement: the completed debit fails and the refund comes from cash-at-fed', () => {
    const setup = setUp({ internal: false });
    runStep(setup, 'send');
    runStep(setup, 'settle');
    expect(setup.streams.history(CUSTOMER_ID).transactions.get(DEBIT)?.status).toBe('completed');
    applyReturn(setup);
    expect(setup.streams.list(`transfer-${TRANSFER}`)[3]).toMatchObject({ type: 'TransferFailed', data: { afterSettlement: true } });
    expect(setup.streams.list(`account-${CUSTOMER_ID}`).at(-2)).toMatchObject({ type: 'TransactionStatusChanged', data: { status: 'failed', previousStatus: 'completed' } });
    expect(setup.streams.list(`account-${CUSTOMER_ID}`).at(-1)).toMatchObject({ type: 'AccountCredited', data: { clearing: 'cash-at-fed' } });
    expect(setup.streams.history(CUSTOMER_ID).transactions.get(DEBIT)?.status).toBe('failed');
    expect(setup.streams.account(CUSTOMER_ID)).toMatchObject({ balances: { savings: 10000 } });
  });

  it('a completed debit stays final to every other status change', () => {
    const setup = setUp({ internal: false });
    runStep(setup, 'send');
    runStep(setup, 'settle');
    expect(() => accountDecider.decide({ type: 'SetTransactionStatus', transactionId: DEBIT, status: 'failed', now: LATER }, setup.streams.account(CUSTOMER_ID))).toThrow(
      'Transaction status cannot be changed',
    );
  });

  it('survives a crash after any action: running the step again from the start gives the uninterrupted result (property)', () => {
    const cases = fc.record({
      kind: fc.constantFrom('internal', 'internal-closed', 'external', 'self'),
      crashAfter: fc.nat({ max: 8 }),
    });
    fc.assert(
      fc.property(cases, ({ kind, crashAfter }) => {
        const make = () =>
          setUp({ internal: !kind.startsWith('external'), payee: kind === 'internal-closed' ? 'closed' : 'open', toSelf: kind === 'self' });
        const settlement = 'accept';
        const clean = make();
        runToEnd(clean, settlement);

        const crashed = make();
        crashed.streams.crashAfter = crashAfter;
        try {
          runToEnd(crashed, settlement);
        } catch (error) {
          if (!(error instanceof Crash)) throw error;
        }
        crashed.streams.crashAfter = Number.POSITIVE_INFINITY;
        runToEnd(crashed, settlement);
        for (const [stream, events] of clean.streams.events) expect(types(crashed.streams.list(stream)), stream).toEqual(types(events));
      }),
      { numRuns: 150 },
    );
  });
});
