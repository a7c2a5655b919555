import { createCommandHandler } from '@bank/commands';
import { addDays, streams } from '@bank/domain';
import { manualClock } from '@bank/platform';
import { startProjector, type ProjectorHandle } from '@bank/projector';
import { createTransferFixture, type TransferFixture } from '@bank/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBusinessCalendar } from './businessCalendar';
import { createCob, type Cob } from './cobPipeline';
import { interestStep } from './interestStep';
import { standingOrdersStep } from './standingOrdersStep';

/**
 * Calendar mode with several workers: each has its own command handler (as separate processes do) and its own COB,
 * and they tick at the same moments. Every date that has ended is closed once, in order, whoever closes it.
 */
const FIRST = '2026-04-01';
let fx: TransferFixture;
let projector: ProjectorHandle;

beforeAll(async () => {
  fx = await createTransferFixture('cob_runners');
  // The interest step waits for the read models to apply each day's accrual.
  projector = startProjector({ pool: fx.pool, store: fx.store });
  await projector.ready;
});

afterAll(async () => {
  await projector?.stop();
  await fx?.close();
});

function worker(clock: ReturnType<typeof manualClock>): Cob {
  const commands = createCommandHandler({ store: fx.store });
  return createCob({
    mode: 'calendar',
    commands,
    store: fx.store,
    pool: fx.pool,
    clock,
    steps: {
      standingOrders: standingOrdersStep({ commands, pool: fx.pool, transfer: { signals: fx.signals, creditWaitMs: 0 }, clock, catchUpDays: 3 }),
      // No ACH file in this test: nothing to settle.
      achSettlement: async () => undefined,
      interest: interestStep({ commands, store: fx.store, pool: fx.pool, clock, projectorWaitMs: 30_000, paymentConcurrency: 4 }),
    },
  });
}

describe('the COB in calendar mode, run by three workers at once', () => {
  it('closes every date that has ended exactly once, in order', async () => {
    const clock = manualClock(`${FIRST}T08:00:00.000Z`);
    const workers = [worker(clock), worker(clock), worker(clock)];
    // The calendar starts on the day the first tick runs: nothing has ended yet.
    expect(await Promise.all(workers.map((cob) => cob.runDue()))).toEqual([[], [], []]);
    expect(await createBusinessCalendar({ mode: 'calendar', commands: fx.commands, clock }).current()).toBe(FIRST);

    const closed: string[] = [];
    for (const days of [1, 3, 1, 7]) {
      clock.advance(days * 86_400_000);
      const ticks = await Promise.all(workers.flatMap((cob) => [cob.runDue(), cob.runDue()]));
      closed.push(...ticks.flat());
    }
    // 12 days later, the 12 dates from the first are closed; the day the clock is on is open.
    const expected = Array.from({ length: 12 }, (_, index) => addDays(FIRST, index));
    expect([...closed].sort()).toEqual(expected);
    const events = await fx.store.readStream(streams.businessDays());
    expect(events.filter((event) => event.type === 'BusinessDayClosed').map((event) => event.data.businessDate)).toEqual(expected);
    expect(events.filter((event) => event.type === 'CobStepCompleted').map((event) => [event.data.businessDate, event.data.step])).toEqual(
      expected.flatMap((date) => [
        [date, 'standingOrders'],
        [date, 'achSettlement'],
        [date, 'interest'],
      ]),
    );
    expect(events.filter((event) => event.type === 'InterestAccrued').map((event) => event.data.businessDate)).toEqual(expected);
    expect(events.filter((event) => event.type === 'BusinessCalendarStarted')).toHaveLength(1);
    expect(await workers[0]!.status()).toEqual({ businessDate: addDays(FIRST, 12), mode: 'calendar', lastClosedDate: addDays(FIRST, 11) });
  });
});
