import express, { type Express } from 'express';
import request from 'supertest';
import { expect } from 'vitest';
import { errorHandler } from '../../../http/errorHandler';
import { jsonBody } from '../../../http/jsonBody';
import { requestId } from '../../../http/requestId';
import { standingOrderShape } from '../../standingOrders/standingOrderShape';
import { createStandingOrdersRouter } from '../../standingOrders/standingOrdersRouter';
import { createTransactionsHarness, TEST_PIN, type TransactionsHarness } from '../../transactions/testing/transactionsHarness';
import { auditRoutes } from '../auditRouter';
import { createAuditVerifier } from '@bank/audit';

/**
 * For the audit's standing-order tests: the standing-order routes and the audit routes (without their role check,
 * tested in auditRouter.int.test.ts) on the real command handler, projector and worker of a transactions harness.
 */
export interface StandingOrderAuditApp {
  readonly h: TransactionsHarness;
  readonly app: Express;
  /** POST /standing-orders of $20.00 from checking to the account number; answers the order's id. */
  createOrder(token: string, accountNumber: string, schedule: Record<string, unknown>, description: string): Promise<string>;
}

export async function createStandingOrderAuditApp(label: string): Promise<StandingOrderAuditApp> {
  // The worker's COB ticks once at start (nothing is due before today): what is paid here, the routes paid.
  const h = await createTransactionsHarness(label, { workerSettings: { COB_TICK_MS: 3_600_000 } });
  const { deps } = h;
  const app = express();
  app.locals.deps = deps;
  app.use(requestId());
  app.use('/api', ...jsonBody());
  app.use('/api', createStandingOrdersRouter(deps));
  const verify = createAuditVerifier({ config: { EVENTSTORE_URL: '' }, pool: deps.pool, store: deps.store });
  app.use('/api/audit', auditRoutes({ store: deps.store, pool: deps.pool, verify, logger: deps.logger }));
  app.use(errorHandler(deps.logger));
  return {
    h,
    app,
    async createOrder(token, accountNumber, schedule, description) {
      const res = await request(app)
        .post('/api/standing-orders')
        .set({ Authorization: `Bearer ${token}` })
        .send({ from: 'checking', amount: '20.00', accountNumber, accountType: 'savings', description, paymentPin: TEST_PIN, schedule });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return standingOrderShape.parse(res.body.data)._id;
    },
  };
}
