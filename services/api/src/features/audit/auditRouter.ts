import type { EventStore } from '@bank/eventstore';
import { Router, type Request } from 'express';
import type pg from 'pg';
import type { AppDeps } from '../../appDeps';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { invalidField, NotFoundError, UnprocessableError } from '../../http/httpErrors';
import { createAuditVerifier } from './auditVerifier';
import { balancesAt, ReplayError } from './balancesAt';
import { toCsv } from './csv';
import { loadCustomerHistory } from './customerHistory';
import { presentEvents, type AuditEvent } from './presentEvents';
import { sendStatement } from '../statements/sendStatement';
import { queryStaffLog, searchCustomers } from './readModelQueries';
import type { VerifyReport } from './verifyRecord';
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
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO-8601 date or date-time (a date alone is midnight UTC), or undefined. */
export function parseInstant(text: unknown): Date | undefined {
  if (typeof text !== 'string' || !ISO_DATE.test(text.trim())) return undefined;
  const date = new Date(text.trim());
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const USER_NOT_FOUND = 'User not found';

function queryText(req: Request, name: string): string | undefined {
  const value = req.query[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function queryInteger(req: Request, name: string, fallback: number, min: number, max: number): number {
  const text = queryText(req, name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw invalidField(name, `${name} must be a whole number from ${min} to ${max}`);
  return value;
}

function queryInstant(req: Request, name: string): Date | undefined {
  const text = queryText(req, name);
  if (text === undefined) return undefined;
  const instant = parseInstant(text);
  if (!instant) throw invalidField(name, `${name} must be an ISO-8601 date or date-time, e.g. 2025-03-01T12:00:00Z`);
  return instant;
}

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
    const limit = queryInteger(req, 'limit', 50, 1, 200);
    const search = queryText(req, 'search');
    res.json({ data: search ? await searchCustomers(deps.pool, search, limit) : [] });
  });

  router.get('/users/:id/events', async (req, res) => {
    const { id } = req.params;
    const format = queryText(req, 'format') ?? 'json';
    if (format !== 'json' && format !== 'csv') throw invalidField('format', 'format must be json or csv');
    const history = isUuid(id) ? await loadCustomerHistory(deps.store, id) : undefined;
    if (!history) throw new NotFoundError(USER_NOT_FOUND);
    const events = presentEvents(deps.store, id, history.events);
    if (format === 'csv') {
      res.type('text/csv; charset=utf-8').attachment(`customer-${id}-events.csv`).send(toCsv(csvColumns, events));
      return;
    }
    res.json({ data: events });
  });

  router.get('/users/:id/balances', async (req, res) => {
    const { id } = req.params;
    const at = queryInstant(req, 'at') ?? new Date();
    try {
      const balances = isUuid(id) ? await balancesAt(deps.store, id, at) : undefined;
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
    await sendStatement({ store: deps.store, ...(deps.logger ? { logger: deps.logger } : {}) }, id.toLowerCase(), req, res);
  });

  router.get('/log', async (req, res) => {
    const entries = await queryStaffLog(deps.pool, deps.store, {
      actor: queryText(req, 'actor'),
      type: queryText(req, 'type'),
      from: queryInstant(req, 'from'),
      to: queryInstant(req, 'to'),
      limit: queryInteger(req, 'limit', 200, 1, 1000),
      offset: queryInteger(req, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    });
    res.json({ data: entries });
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
    auditRoutes({ store: deps.store, pool: deps.pool, verify: createAuditVerifier(deps), logger: deps.logger }),
  );
  return router;
}
