import path from 'node:path';
import { fileURLToPath } from 'node:url';
import compression from 'compression';
import cors from 'cors';
import express, { type Express } from 'express';
import helmet from 'helmet';
import type { AppDeps } from './appDeps';
import { authenticate, requireAuth } from './auth/requireAuth';
import { requireRole } from './auth/requireRole';
import { createAdminUsersRouter } from './features/admin/adminUsersRouter';
import { createAuditRouter } from './features/audit/auditRouter';
import { createAuthRouter } from './features/auth/authRouter';
import { createBankRouter } from './features/bank/bankRouter';
import { createBeneficiariesRouter } from './features/beneficiaries/beneficiariesRouter';
import { createAchRouter, isAchUploadRequest } from './features/ach/achRouter';
import { createBusinessDateRouter } from './features/businessDate/businessDateRouter';
import { createCardsRouter } from './features/cards/cardsRouter';
import { createContactsRouter } from './features/contacts/contactsRouter';
import { createFilesRouter } from './features/files/filesRouter';
import { createInterestRouter } from './features/interest/interestRouter';
import { createLedgerRouter } from './features/ledger/ledgerRouter';
import { createMailRouter } from './features/mail/mailRouter';
import { createApiDocsRouter } from './features/openapi/apiDocsRouter';
import { createOpenApiRouter } from './features/openapi/openApiRouter';
import { createQueueDashboard, QUEUE_DASHBOARD_PATH } from './features/transactions/queueDashboard';
import { createStandingOrdersRouter } from './features/standingOrders/standingOrdersRouter';
import { createStatementsRouter } from './features/statements/statementsRouter';
import { createTransactionsRouter } from './features/transactions/transactionsRouter';
import { createUsersRouter, isUploadRequest } from './features/users/usersRouter';
import { consistentRead } from './http/consistentRead';
import { errorHandler } from './http/errorHandler';
import { NotFoundError } from './http/httpErrors';
import { idempotency } from './http/idempotency';
import { deadlineExempt } from './http/deadlineExempt';
import { requestDeadline } from './http/requestDeadline';
import { jsonBody } from './http/jsonBody';
import { requestId } from './http/requestId';
import { requestLogger } from './http/requestLogger';
import { staticWeb } from './http/staticWeb';
import { storableText } from './http/storableText';
import { createOperationsRouter } from './operations/operationsRouter';
import { httpMetrics } from './operations/apiMetrics';

const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/** Headers a browser client on another origin (CORS_ORIGINS) may read. */
const EXPOSED_HEADERS = ['X-Event-Position', 'X-Stale', 'X-Request-Id', 'Retry-After', 'Idempotent-Replayed', 'RateLimit', 'RateLimit-Policy'];

/** The routers under /api, in mounting order (each carries its full paths, relative to /api). */
export function createApiRouters(deps: AppDeps): express.Router[] {
  const transactions = express.Router();
  // The customer area: auditors read the audit routes only (the router checks the admin role on /admin itself).
  transactions.use('/transaction', requireAuth(deps), requireRole('customer', 'admin'), createTransactionsRouter(deps));
  return [
    createOperationsRouter(deps),
    createOpenApiRouter(),
    createApiDocsRouter(),
    createBankRouter(deps),
    createAuthRouter(deps),
    createMailRouter(deps),
    createUsersRouter(deps),
    createFilesRouter(deps),
    createCardsRouter(deps),
    createBeneficiariesRouter(deps),
    createContactsRouter(deps),
    createAdminUsersRouter(deps),
    transactions,
    createStatementsRouter(deps),
    createStandingOrdersRouter(deps),
    createLedgerRouter(deps),
    createAuditRouter(deps),
    createBusinessDateRouter(deps),
    createInterestRouter(deps),
    createAchRouter(deps),
  ];
}

/**
 * The HTTP app: /api (JSON only, request ids, logs, metrics, CORS, authentication, read-your-writes, idempotency,
 * the feature routers, JSON 404 and the error mapping) and the web build with its SPA fallback at /.
 */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // TRUST_PROXY: which proxies may name the client in X-Forwarded-For (req.ip: per-address limits, idempotency scope, logs).
  app.set('trust proxy', deps.config.TRUST_PROXY);
  app.locals.deps = deps;
  app.use(requestId());
  app.use(requestLogger(deps.logger));
  app.use(httpMetrics(deps.metrics));
  // The BullMQ dashboard (admin only, see queueDashboard.ts) serves its own page and scripts: no CSP of ours.
  app.use(QUEUE_DASHBOARD_PATH, createQueueDashboard(deps));
  app.use(
    helmet({
      // blob: for the images the web app fetches with the bearer token; no upgrade-insecure-requests, so that a
      // deployment served over plain HTTP (a LAN address, docker compose) still loads its own scripts.
      contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'data:', 'blob:'], 'upgrade-insecure-requests': null } },
    }),
  );

  const api = express.Router();
  // A request not answered in REQUEST_DEADLINE_MS is answered 503 (a backing service that stopped answering); the
  // work an operator starts knowing it takes long, and downloads, are left alone (deadlineExempt.ts).
  api.use(requestDeadline({ ms: deps.config.REQUEST_DEADLINE_MS, logger: deps.logger, skip: deadlineExempt }));
  api.use(cors({ origin: deps.config.CORS_ORIGINS.length > 0 ? [...deps.config.CORS_ORIGINS] : false, credentials: true, exposedHeaders: EXPOSED_HEADERS }));
  // JSON answers over 1 kB go compressed (brotli or gzip, as the client accepts); the web build is precompressed.
  api.use(compression({ threshold: 1024 }));
  // 100 kB everywhere; the upload routes parse their bodies themselves, after authentication (usersRouter.ts).
  api.use(storableText());
  api.use(jsonBody({ defer: isUploadRequest, notJson: isAchUploadRequest }));
  api.use(authenticate(deps));
  api.use(consistentRead(deps));
  // Answers carrying a token, a TOTP secret or recovery codes are never kept in an idempotency record.
  api.use(
    idempotency(deps, {
      exclude: ['/auth/signin', '/auth/signout', '/auth/second-factor', '/auth/second-factor/enrol', '/auth/second-factor/setup', '/auth/second-factor/confirm'],
      // A transfer keeps its key itself, with the log as its record (features/transactions/transferIdempotency.ts).
      skip: (req) => isUploadRequest(req) || (req.method === 'POST' && req.path === '/transaction/transfer'),
    }),
  );
  for (const router of createApiRouters(deps)) api.use(router);
  api.use(() => {
    throw new NotFoundError('Not found');
  });
  api.use(errorHandler(deps.logger));
  app.use('/api', api);

  app.use(staticWeb(deps.webDist ?? defaultWebDist));
  app.use(errorHandler(deps.logger));
  return app;
}
