import { defaultTransferSettings, type SettlementNetwork } from '@bank/transfers';
import { startWorker, type RunningWorker } from '@bank/worker';
import request from 'supertest';
import { createTestApp, type SignedIn, type TestApp } from '../../../testing/testApp';

/** A routing number that passes the ABA check digit (an external transfer's). */
export const EXTERNAL_ROUTING_NUMBER = '021000021';
/** The simulated settlement network rejects transfers to this account (SETTLEMENT_REJECT_ACCOUNTS' default). */
export const REJECTED_ACCOUNT = '0000000000';
export const TEST_PIN = '135790';

/**
 * The whole API (createTestApp: PostgreSQL, Redis, the projector) with the worker running in-process too (the
 * transfer process credits payees, the settlement jobs settle or refund external transfers): every money event of
 * the bank can happen, so the books get every kind of entry.
 */
export interface LedgerTestApp extends TestApp {
  readonly worker: RunningWorker;
  /** A customer with a payment pin and the given balances, set by `admin` (one balance edit per changed balance). */
  fundedCustomer(admin: SignedIn, savings: number, checking?: number): Promise<SignedIn>;
}

export interface LedgerTestAppOptions {
  /** The other banks (default: the simulated network of SETTLEMENT_REJECT_ACCOUNTS). */
  readonly settlement?: SettlementNetwork;
}

export async function createLedgerTestApp(label: string, options: LedgerTestAppOptions = {}): Promise<LedgerTestApp> {
  const t = await createTestApp(label, { env: { SETTLEMENT_DELAY_MS: '50' } });
  const { config } = t.deps;
  const worker = await startWorker({
    config: {
      ...defaultTransferSettings({ WORKER_BACKOFF_MS: 100, WORKER_LOCK_DURATION_MS: 5000, WORKER_STALLED_INTERVAL_MS: 2000 }),
      REDIS_URL: config.REDIS_URL,
      REDIS_PREFIX: config.REDIS_PREFIX,
      SETTLEMENT_DELAY_MS: config.SETTLEMENT_DELAY_MS,
      AUDIT_CHECK_EVERY_MS: config.AUDIT_CHECK_EVERY_MS,
    },
    store: t.store,
    pool: t.deps.pool,
    commands: t.deps.commands,
    signals: t.deps.signals,
    logger: t.deps.logger,
    sweepOnStart: false,
    ...(options.settlement ? { settlement: options.settlement } : {}),
  });
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
    async close() {
      await worker.stop();
      await t.close();
    },
  };
}
