import type { EventStore } from '@bank/eventstore';
import { Router } from 'express';
import { z } from 'zod';
import type pg from 'pg';
import type { AppDeps } from '../../appDeps';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { invalidField, NotFoundError, UnprocessableError } from '../../http/httpErrors';
import { pageOf, pageRequest, type PageSize } from '../../http/keysetPage';
import { queryInstant, queryInteger, queryText } from '../../http/queryParams';
import { createAuditVerifier } from '@bank/audit';
import { balancesAt, ReplayError } from './balancesAt';
import { toCsv } from './csv';
import { loadCustomerHistory } from './customerHistory';
import { standingOrdersOfPayer } from './customerStandingOrders';
import { presentEvents, type AuditEvent } from './presentEvents';
import { sendStatement } from '../statements/sendStatement';
import { auditUserKey, queryStaffLog, searchCustomers, staffLogKey } from './readModelQueries';
import type { VerifyReport } from '@bank/audit';
import { isUuid } from '@bank/platform';

/** What the audit routes need; AppDeps provides it. */
export interface AuditDeps {
  readonly store: EventStore;
  /** The read models (rm.*). */
  readonly pool: pg.Pool;
  /** The whole verification (hash chains and read models). */
  readonly verify: () => Promise<VerifyReport>;
  /** Where a statement download cut short is reported. */
  readonly logger?: AppDeps['logger'];
  /** The routing number statements print (BANK_ROUTING_NUMBER). */
  readonly routingNumber?: string;
}

export const AUDIT_SEARCH_PAGE: PageSize = { defaultLimit: 50, maxLimit: 200 };
export const AUDIT_EVENTS_PAGE: PageSize = { defaultLimit: 500, maxLimit: 1000 };
/** Up to this many events, GET /audit/users/:id/events without limit and cursor answers them all at once. */
export const AUDIT_EVENTS_WHOLE = 1000;
/** The key of a customer's event list (global log order): the position token of the last event shown. */
export const auditEventKey = z.object({ position: z.string().regex(/^\d{1,20}$/) });
/** The newest transactions a balances-at answer lists by default (`?limit`, 1 to 1,000): a merchant has 100,000. */
export const BALANCES_TRANSACTIONS = 200;
export const STAFF_LOG_PAGE: PageSize = { defaultLimit: 200, maxLimit: 1000 };
/** `offset` of the staff log is kept for old clients only: OFFSET reads every skipped row, so it is bounded. */
export const STAFF_LOG_MAX_OFFSET = 10_000;

const USER_NOT_FOUND = 'User not found';

const csvColumns: { header: string; value: (event: AuditEvent) => string | number | null }[] = [
  { header: 'position', value: (e) => e.position },
  { header: 'time', value: (e) => e.time },
  { header: 'stream', value: (e) => e.stream },
  { header: 'revision', value: (e) => e.revision },
  { header: 'type', value: (e) => e.type },
  { header: 'actor_id', value: (e) => e.actor.id },
  { header: 'actor_role', value: (e) => e.actor.role },
  { header: 'summary', value: (e) => e.summary },
  { header: 'changes', value: (e) => e.changes.map((c) => `${c.field}: ${String(c.before)} -> ${String(c.after)}`).join('; ') },
  { header: 'savings_after', value: (e) => e.balances.savings.toFixed(2) },
  { header: 'checking_after', value: (e) => e.balances.checking.toFixed(2) },
  { header: 'event_id', value: (e) => e.id },
  { header: 'data', value: (e) => JSON.stringify(e.data) },
];

/**
 * The auditors' read-only routes (mounted at /audit behind requireAuth + requireRole('auditor', 'admin')).
 * Customer histories and balances come from the event store; the search and the staff log from the read models.
 */
export function auditRoutes(deps: AuditDeps): Router {
  const router = Router();

  router.get('/users', async (req, res) => {
    const { limit, after } = pageRequest(req, auditUserKey, AUDIT_SEARCH_PAGE);
    const search = queryText(req, 'search');
    if (!search) {
      res.json({ data: [], next: null });
      return;
    }
    const page = pageOf(await searchCustomers(deps.pool, search, limit + 1, after), limit, (row) => row.key);
    res.json({ data: page.rows.map((row) => row.user), next: page.next });
  });

  router.get('/users/:id/events', async (req, res) => {
    const { id } = req.params;
    const format = queryText(req, 'format') ?? 'json';
    if (format !== 'json' && format !== 'csv') throw invalidField('format', 'format must be json or csv');
    const history = isUuid(id) ? await loadCustomerHistory(deps.store, id, { standingOrders: standingOrdersOfPayer(deps.pool) }) : undefined;
    if (!history) throw new NotFoundError(USER_NOT_FOUND);
    const events = presentEvents(deps.store, id, history.events);
    if (format === 'csv') {
      res.type('text/csv; charset=utf-8').attachment(`customer-${id}-events.csv`).send(toCsv(csvColumns, events));
      return;
    }
    // Without limit and cursor: every event (API.md) while there are at most AUDIT_EVENTS_WHOLE, else the first page
    // and its cursor (a merchant's 100,000 events would be tens of megabytes; no answer passes 1 MB). Paged: the
    // whole history is still replayed (each event's balances come from the ones before it, and an audit trusts no
    // snapshot); only the answer is cut.
    const unpaged = queryText(req, 'limit') === undefined && queryText(req, 'cursor') === undefined;
    if (unpaged && events.length <= AUDIT_EVENTS_WHOLE) {
      res.json({ data: events, next: null });
      return;
    }
    const { limit, after } = pageRequest(req, auditEventKey, AUDIT_EVENTS_PAGE);
    const rest = after ? events.filter((event) => BigInt(event.position) > BigInt(after.position)) : events;
    const page = pageOf(rest.slice(0, limit + 1), limit, (event) => ({ position: event.position }));
    res.json({ data: page.rows, next: page.next });
  });

  router.get('/users/:id/balances', async (req, res) => {
    const { id } = req.params;
    const at = queryInstant(req, 'at') ?? new Date();
    const limit = queryInteger(req, 'limit', BALANCES_TRANSACTIONS, 1, 1000);
    try {
      const balances = isUuid(id) ? await balancesAt(deps.store, id, at, { newest: limit }) : undefined;
      if (!balances) throw new NotFoundError(USER_NOT_FOUND);
      res.json({ data: balances });
    } catch (error) {
      if (error instanceof ReplayError) throw new UnprocessableError(error.message);
      throw error;
    }
  });

  // A customer's statement, as the customer gets it from GET /statements (docs/api.md "Statements").
  router.get('/users/:id/statements', async (req, res) => {
    const { id } = req.params;
    if (!isUuid(id)) throw new NotFoundError(USER_NOT_FOUND);
    await sendStatement({ store: deps.store, ...(deps.routingNumber ? { routingNumber: deps.routingNumber } : {}), ...(deps.logger ? { logger: deps.logger } : {}) }, id.toLowerCase(), req, res);
  });

  router.get('/log', async (req, res) => {
    const { limit, after } = pageRequest(req, staffLogKey, STAFF_LOG_PAGE);
    const offset = queryInteger(req, 'offset', 0, 0, STAFF_LOG_MAX_OFFSET);
    if (after && offset > 0) throw invalidField('offset', 'offset cannot be combined with a cursor');
    const rows = await queryStaffLog(deps.pool, deps.store, {
      actor: queryText(req, 'actor'),
      type: queryText(req, 'type'),
      from: queryInstant(req, 'from'),
      to: queryInstant(req, 'to'),
      limit: limit + 1,
      offset,
      after,
    });
    const page = pageOf(rows, limit, (row) => row.key);
    res.json({ data: page.rows.map((row) => row.entry), next: page.next });
  });

  router.get('/verify', async (_req, res) => {
    res.json({ data: await deps.verify() });
  });

  return router;
}

/** GET /api/audit/… for auditors and admins (customers 403, no token 401). Read only: no route here changes anything. */
export function createAuditRouter(deps: AppDeps): Router {
  const router = Router();
  router.use(
    '/audit',
    requireAuth(deps),
    requireRole('auditor', 'admin'),
    auditRoutes({ store: deps.store, pool: deps.pool, verify: createAuditVerifier(deps), logger: deps.logger, routingNumber: deps.config.BANK_ROUTING_NUMBER }),
  );
  return router;
}
