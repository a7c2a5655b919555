import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { emptyLedgerTotals, streams, totalsToStored, type BusinessDayClose } from '@bank/domain';
import { startProjector, type ProjectorHandle } from '@bank/projector';
import { createTransferFixture, type TransferFixture } from '@bank/testkit';
import { defaultTransferSettings } from '@bank/transfers';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type RunningWorker } from './startWorker';

/**
 * Books out of balance: a day close written by something other than the COB (a tampered or corrupted log) claims
 * cumulative totals whose debits exceed their credits. The worker's next close starts from them, finds the books out
 * of balance and records balanced: false with the accounts named; it logs an error naming them, raises the metric,
 * and the periodic audit fails.
 */
const START = '2026-01-05';
let fx: TransferFixture;
let worker: RunningWorker;
let projector: ProjectorHandle;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  fx = await createTransferFixture('books_unbalanced');
  // The COB's interest step waits for the read models to apply each day's accrual.
  projector = startProjector({ pool: fx.pool, store: fx.store });
  await projector.ready;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  worker = await startWorker({
    config: {
      ...defaultTransferSettings(),
      REDIS_URL: fx.redis.url,
      REDIS_PREFIX: fx.redis.prefix,
      AUDIT_CHECK_EVERY_MS: 3_600_000,
      BUSINESS_DATE_MODE: 'manual',
      BUSINESS_DATE_START: START,
      COB_TICK_MS: 3_600_000,
    },
    store: fx.store,
    pool: fx.pool,
    commands: fx.commands,
    logger: pino({ level: 'info' }, stream),
    verifyReadModels: async () => ({ ok: true, balances: 0, standingOrders: 0, journalLines: 0, mismatches: [], customers: [] }),
    sweepOnStart: false,
  });
  await worker.cobRunner.ready;
});

afterAll(async () => {
  await worker?.stop();
  await projector?.stop();
  await fx?.close();
});

describe('a close that finds the books out of balance', () => {
  it('records balanced: false naming the accounts, logs an error, raises the metric and fails the audit', async () => {
    expect(await worker.calendar.current()).toBe(START);
    const accounts = totalsToStored(emptyLedgerTotals()).map((row) => (row.key === 'staff-postings' ? { ...row, debitsCents: '100' } : row));
    const tampered: BusinessDayClose = {
      businessDate: START,
      closedAt: `${START}T23:59:59.000Z`,
      throughPosition: '',
      accounts,
      totalDebitsCents: '100',
      totalCreditsCents: '0',
      balanced: false,
      journalHash: '0'.repeat(64),
      lineCount: 0,
      unbalancedAccounts: ['staff-postings'],
    };
    await fx.store.append(
      streams.businessDays(),
      [
        { id: randomUUID(), type: 'CobStepCompleted', data: { businessDate: START, step: 'standingOrders', completedAt: tampered.closedAt } },
        { id: randomUUID(), type: 'BusinessDayClosed', data: { ...tampered } },
      ],
      'any',
    );
    fx.commands.clearCache();

    expect(await worker.cob.advance(1)).toMatchObject({ businessDate: '2026-01-07', closed: ['2026-01-06'] });
    const closes = (await fx.store.readStream(streams.businessDays())).filter((event) => event.type === 'BusinessDayClosed');
    expect(closes.at(-1)!.data).toMatchObject({ businessDate: '2026-01-06', balanced: false, totalDebitsCents: '100', totalCreditsCents: '0', unbalancedAccounts: ['staff-postings'] });

    const error = lines.find((line) => line.level === 50 && String(line.msg).includes('OUT OF BALANCE'));
    expect(error?.msg).toContain('staff-postings');
    expect(error?.msg).toContain('2026-01-06');
    expect(await worker.metrics.registry.getSingleMetricAsString('bank_books_balanced')).toContain('bank_books_balanced 0');
    expect(await worker.metrics.registry.getSingleMetricAsString('bank_cob_day_closes_total')).toContain('bank_cob_day_closes_total{balanced="false"} 1');

    const audit = await worker.auditCheck();
    expect(audit).toMatchObject({ ok: false, mismatches: 2 });
    expect(await worker.metrics.registry.getSingleMetricAsString('bank_books_unbalanced_closes')).toContain('bank_books_unbalanced_closes 2');
    expect(await worker.metrics.registry.getSingleMetricAsString('bank_read_model_audit_ok')).toContain('bank_read_model_audit_ok 0');
  });
});
