import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateReadModels } from '@bank/projector';
import { createTransferFixture, waitUntil, type TransferFixture } from '@bank/testkit';
import { defaultTransferSettings, faultHookFromSpec, parseTransferSettings } from '@bank/transfers';
import type { ReadModelReport } from '@bank/audit';
import { runAuditCheck } from './auditCheck';
import { workerMetrics } from './metrics';
import { AUDIT_SCHEDULER_ID, startWorker } from './startWorker';

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      callback();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

const clean: ReadModelReport = { ok: true, balances: 2, standingOrders: 0, journalLines: 4, mismatches: [], customers: [] };

describe('the periodic audit check', () => {
  it('records a clean result in the metrics and an info log', async () => {
    const { logger, lines } = capturingLogger();
    const metrics = workerMetrics();
    const result = await runAuditCheck({ verify: async () => ({ readModels: clean, unbalancedCloses: [] }), logger, metrics });
    expect(result).toMatchObject({ ok: true, mismatches: 0, accounts: [] });
    expect(await metrics.registry.getSingleMetricAsString('bank_read_model_audit_ok')).toContain('bank_read_model_audit_ok 1');
    expect(lines.at(-1)).toMatchObject({ level: 30 });
  });

  it('logs a mismatch at error level naming the accounts, and sets the metrics', async () => {
    const { logger, lines } = capturingLogger();
    const metrics = workerMetrics();
    const mismatches = [
      { kind: 'read_model' as const, stream: 'account-u-1', reason: 'balance_mismatch', message: 'account-u-1: savings is $0.90 in the read model, the replay of the events gives $1.00' },
      { kind: 'read_model' as const, stream: 'account-u-2', reason: 'balance_mismatch', message: 'account-u-2: checking is $0.00 in the read model, the replay of the events gives $0.05' },
    ];
    const unbalancedCloses = [{ kind: 'unbalanced-close' as const, businessDate: '2026-01-06', totalDebitsCents: '100', totalCreditsCents: '0' }];
    const result = await runAuditCheck({ verify: async () => ({ readModels: { ...clean, ok: false, mismatches, customers: ['u-1', 'u-2'] }, unbalancedCloses }), logger, metrics });
    expect(result).toMatchObject({ ok: false, mismatches: 3, accounts: ['u-1', 'u-2'] });
    const error = lines.find((line) => line.level === 50);
    expect(error?.msg).toContain('u-1, u-2');
    expect(await metrics.registry.getSingleMetricAsString('bank_read_model_audit_ok')).toContain('bank_read_model_audit_ok 0');
    expect(await metrics.registry.getSingleMetricAsString('bank_read_model_audit_mismatches')).toContain('bank_read_model_audit_mismatches 3');
  });

});

/** The worker on `fx`, sweeping every 200 ms and auditing every `auditEveryMs`, with an audit that counts its runs. */
async function startCountingWorker(fx: TransferFixture, auditEveryMs: number) {
  let audits = 0;
  const worker = await startWorker({
    config: {
      ...defaultTransferSettings({ TRANSFER_SWEEP_EVERY_MS: 200 }),
      REDIS_URL: fx.redis.url,
      REDIS_PREFIX: fx.redis.prefix,
      AUDIT_CHECK_EVERY_MS: auditEveryMs,
    },
    store: fx.store,
    pool: fx.pool,
    commands: fx.commands,
    logger: pino({ level: 'silent' }),
    verifyReadModels: async () => {
      audits += 1;
      return clean;
    },
  });
  return { worker, audits: () => audits };
}

describe('the audit and sweeper as repeatable BullMQ jobs', () => {
  let fx: TransferFixture;
  beforeAll(async () => {
    fx = await createTransferFixture('audit_job');
    await migrateReadModels(fx.pool);
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('runs the audit every AUDIT_CHECK_EVERY_MS and the sweeper every TRANSFER_SWEEP_EVERY_MS', async () => {
    const { worker, audits } = await startCountingWorker(fx, 200);
    try {
      await waitUntil(async () => audits() >= 2, { timeoutMs: 10_000, what: 'two audits' });
      await waitUntil(async () => (await worker.metrics.registry.getSingleMetricAsString('bank_transfer_sweeper_runs_total')).includes('result="ok"'), {
        what: 'a sweep',
      });
      const schedulers = (await worker.maintenance.getJobSchedulers()).map((s) => s.key).sort();
      expect(schedulers).toEqual(['read-model-audit', 'transfer-sweeper']);
      // Queue depth and the transfer process's load are read when the metrics are scraped.
      const queues = await worker.metrics.registry.getSingleMetricAsString('bank_queue_jobs');
      expect(queues).toMatch(/bank_queue_jobs\{queue="maintenance",state="delayed"\} \d+/);
      expect(queues).toMatch(/bank_queue_jobs\{queue="ach",state="waiting"\} 0/);
      expect(await worker.metrics.registry.getSingleMetricAsString('bank_transfer_process_in_flight')).toContain('bank_transfer_process_in_flight 0');
    } finally {
      await worker.stop();
    }
  });
});

describe('the first periodic audit', () => {
  let fx: TransferFixture;
  beforeAll(async () => {
    fx = await createTransferFixture('audit_first');
    await migrateReadModels(fx.pool);
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('comes one interval after the start, not as the worker starts', async () => {
    const every = 60_000;
    const started = Date.now();
    const { worker, audits } = await startCountingWorker(fx, every);
    try {
      // Several sweeps (every 200 ms), each followed by the schedules' upsert: the audit's first run stays put.
      const sweeps = async () => Number(/result="ok"\} (\d+)/.exec(await worker.metrics.registry.getSingleMetricAsString('bank_transfer_sweeper_runs_total'))?.[1] ?? 0);
      await waitUntil(async () => (await sweeps()) >= 3, { what: 'three sweeps' });
      const audit = (await worker.maintenance.getJobSchedulers()).find((scheduler) => scheduler.key === AUDIT_SCHEDULER_ID);
      expect(audit?.next).toBeGreaterThanOrEqual(started + every);
      // The sweeper shares the queue and runs every 200 ms, so one of its jobs may be active at this moment: only the
      // audit's own jobs must be absent.
      const queued = await worker.maintenance.getJobs(['waiting', 'active', 'prioritized']);
      expect(queued.filter((job) => job.name === 'audit-check' || job.repeatJobKey === AUDIT_SCHEDULER_ID)).toEqual([]);
      expect(audits()).toBe(0);
    } finally {
      await worker.stop();
    }
  });
});

describe('configuration', () => {
  it('reads the transfer variables with defaults, and refuses bad ones', () => {
    expect(parseTransferSettings({})).toMatchObject({
      TRANSFER_SWEEP_EVERY_MS: 30_000,
      TRANSFER_ABANDON_AFTER_MS: 60_000,
      TRANSFER_CREDIT_WAIT_MS: 5_000,
      TRANSFER_PROCESS_CONCURRENCY: 512,
    });
    expect(parseTransferSettings({ SETTLEMENT_REJECT_ACCOUNTS: '1111111111' })).not.toHaveProperty('SETTLEMENT_REJECT_ACCOUNTS');
    expect(() => parseTransferSettings({ TRANSFER_SWEEP_EVERY_MS: 'often' })).toThrow(/TRANSFER_SWEEP_EVERY_MS/);
  });

  it('ignores fault injection in production and refuses unknown points', () => {
    expect(faultHookFromSpec('before-credit:exit', 'production')).toBeTypeOf('function');
    expect(() => faultHookFromSpec('nowhere:hang', 'test')).toThrow(/Unknown fault point/);
  });
});
