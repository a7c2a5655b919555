import { createDirectoryTransport, type BuiltAchFile, type ReturnsImport } from '@bank/ach';
import type { ReturnReasonCode } from '@bank/domain';
import { defaultTransferSettings } from '@bank/transfers';
import { startWorker, type RunningWorker } from '@bank/worker';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { achDriver } from '../../../testing/achDriver';
import { createTestApp, type SignedIn, type TestApp } from '../../../testing/testApp';

/** A routing number that passes the ABA check digit (an external transfer's). */
export const EXTERNAL_ROUTING_NUMBER = '021000021';
/** The account the tests have the receiving bank return (R01) through a returns file. */
export const REJECTED_ACCOUNT = '0000000000';
export const TEST_PIN = '135790';

/**
 * The whole API (createTestApp: PostgreSQL, Redis, the projector) with the worker running in-process too (the
 * transfer process credits payees, queues external transfers for their ACH file), and the ACH cycle driven by the
 * test (a file built, a returns file imported, the file settled as the COB of its effective date settles it):
 * every money event of the bank can happen, so the books get every kind of entry.
 */
export interface LedgerTestApp extends TestApp {
  readonly worker: RunningWorker;
  /** A customer with a payment pin and the given balances, set by `admin` (one balance edit per changed balance). */
  fundedCustomer(admin: SignedIn, savings: number, checking?: number): Promise<SignedIn>;
  /** Waits until these transfers wait for a file, then builds one (with every entry waiting). */
  buildAchFile(transferIds: readonly string[]): Promise<BuiltAchFile>;
  /** The ODFI returns the file's entries to these account numbers. */
  returnEntries(file: BuiltAchFile, accountNumbers: readonly string[], reasonCode?: ReturnReasonCode): Promise<ReturnsImport>;
  /** The COB of the file's effective date settles it. */
  settleAchFile(file: BuiltAchFile): Promise<void>;
  /** The folder the worker transmits ACH files to (its `outbox/`) and reads returns from (`inbox/`). */
  readonly achDir: string;
}

export interface LedgerTestAppOptions {
  /** The worker's ACH look at the clock and inbox (default 30 s, as the worker's). */
  readonly achPollEveryMs?: number;
}

export async function createLedgerTestApp(label: string, options: LedgerTestAppOptions = {}): Promise<LedgerTestApp> {
  const t = await createTestApp(label);
  // The worker's ACH files go to a folder of this app's own (DATA_DIR/ach, as the embedded default), not the repository's.
  const achDir = await mkdtemp(path.join(os.tmpdir(), `bank-ach-${label}-`));
  const { config } = t.deps;
  const worker = await startWorker({
    config: {
      ...defaultTransferSettings({ WORKER_BACKOFF_MS: 100, WORKER_LOCK_DURATION_MS: 5000, WORKER_STALLED_INTERVAL_MS: 2000 }),
      REDIS_URL: config.REDIS_URL,
      REDIS_PREFIX: config.REDIS_PREFIX,
      AUDIT_CHECK_EVERY_MS: config.AUDIT_CHECK_EVERY_MS,
    },
    store: t.store,
    pool: t.deps.pool,
    commands: t.deps.commands,
    signals: t.deps.signals,
    logger: t.deps.logger,
    sweepOnStart: false,
    ach: { transport: createDirectoryTransport(achDir), ...(options.achPollEveryMs === undefined ? {} : { pollEveryMs: options.achPollEveryMs }) },
  });
  const ach = achDriver(worker.achCycle);
  return {
    ...t,
    worker,
    async fundedCustomer(admin, savings, checking = 0) {
      const customer = await t.customer();
      await request(t.app)
        .put(`/api/user/admin/${customer.userId}`)
        .set(admin.auth)
        .send({ firstName: 'Ledger', lastName: 'Customer', email: customer.email, phone: '555-0100', location: { address: '1 Main', state: 'NY' }, paymentPin: TEST_PIN })
        .expect(200);
      await request(t.app)
        .put(`/api/user/admin/account/${customer.userId}`)
        .set(admin.auth)
        .send({ savings, checking, number: customer.accountNumber, reason: 'Opening deposit' })
        .expect(200);
      return customer;
    },
    buildAchFile: (transferIds) => ach.buildFile(transferIds),
    returnEntries: (file, accountNumbers, reasonCode) => ach.returnEntries(file, accountNumbers, reasonCode),
    settleAchFile: (file) => ach.settleFile(file),
    achDir,
    async close() {
      await worker.stop();
      await t.close();
      await rm(achDir, { recursive: true, force: true });
    },
  };
}
