import { isLedgerAccountKey, trialBalanceOf, type TrialBalance } from '@bank/domain';
import type { EventStore } from '@bank/eventstore';
import { Router } from 'express';
import type { Logger } from 'pino';
import type pg from 'pg';
import type { AppDeps } from '../../appDeps';
import { requireAuth } from '../../auth/requireAuth';
import { requireRole } from '../../auth/requireRole';
import { NotFoundError, UnprocessableError } from '../../http/httpErrors';
import { pageOf, pageRequest, type PageSize } from '../../http/keysetPage';
import { pathParam } from '../../http/pathParam';
import { trialBalanceCsv, writeEntriesCsv } from './ledgerCsv';
import { dayKey, queryDays } from './ledgerDays';
import { allEntries, entryKey, entryKeyOf, ledgerEntryJson, queryEntries } from './ledgerEntries';
import { ledgerAccountJson, trialBalanceJson } from './ledgerJson';
import { queryEntryFilter, queryFormat, queryPastInstant } from './ledgerQuery';
import { readLedgerTotals } from './ledgerTotalsQuery';
import { writeOut } from '../statements/writeOut';
import { reconcile } from './reconciliation';
import { sendDownload } from '../../http/sendDownload';
import { LedgerReplayError, trialBalanceAt } from './trialBalanceAt';
import { writeTrialBalancePdf } from './trialBalancePdf';

export const LEDGER_ACCOUNT_NOT_FOUND = 'Ledger account not found';
export const LEDGER_ENTRIES_PAGE: PageSize = { defaultLimit: 100, maxLimit: 500 };
export const LEDGER_DAYS_PAGE: PageSize = { defaultLimit: 100, maxLimit: 500 };
/** Lines per read of a CSV download of entries. */
const ENTRIES_CSV_PAGE = 1_000;

/** What the ledger routes need; AppDeps provides it. */
export interface LedgerDeps {
  /** The read models (rm.ledger_*, rm.journal_lines, rm.clearing_items, rm.accounts). */
  readonly pool: pg.Pool;
  /** The log, for the trial balance at a past instant. */
  readonly store: EventStore;
  readonly now?: () => Date;
  /** Where a download cut short is reported. */
  readonly logger?: Pick<Logger, 'warn'>;
  /** The routing number the PDF prints (BANK_ROUTING_NUMBER). */
  readonly routingNumber?: string;
}

/** `trial-balance-2025-03-01T12-00-00.000Z.csv`: the instant without the colons a file name may not hold. */
function trialBalanceFileName(at: Date, format: 'csv' | 'pdf'): string {
  return `trial-balance-${at.toISOString().replace(/:/g, '-')}.${format}`;
}

/** The books' read-only reports (docs/ledger.md "Reports"), mounted at /audit/ledger behind the auditors' guard. */
export function ledgerRoutes(deps: LedgerDeps): Router {
  const router = Router();
  const now = () => deps.now?.() ?? new Date();
  const replayedAt = async (at: Date): Promise<TrialBalance> => {
    try {
      return (await trialBalanceAt(deps.pool, deps.store, at)).trialBalance;
    } catch (error) {
      if (error instanceof LedgerReplayError) throw new UnprocessableError(error.message);
      throw error;
    }
  };

  router.get('/accounts', async (_req, res) => {
    const trialBalance = trialBalanceOf(await readLedgerTotals(deps.pool));
    res.json({ data: trialBalance.rows.map(ledgerAccountJson) });
  });

  router.get('/trial-balance', async (req, res) => {
    const asked = queryPastInstant(req, now());
    const format = queryFormat(req, ['csv', 'pdf'] as const);
    const at = asked ?? now();
    const trialBalance = asked ? await replayedAt(asked) : trialBalanceOf(await readLedgerTotals(deps.pool));
    if (format === 'json') {
      res.json({ data: trialBalanceJson(at, trialBalance) });
      return;
    }
    const fileName = trialBalanceFileName(at, format);
    if (format === 'csv') {
      await sendDownload(res, { fileName, contentType: 'text/csv; charset=utf-8' }, (out) => writeOut(out, trialBalanceCsv(trialBalance)), deps.logger);
      return;
    }
    await sendDownload(res, { fileName, contentType: 'application/pdf' }, (out) => writeTrialBalancePdf(at, trialBalance, out, deps.routingNumber ? { routingNumber: deps.routingNumber } : {}), deps.logger);
  });

  router.get('/accounts/:key/entries', async (req, res) => {
    const key = pathParam(req, 'key');
    if (!isLedgerAccountKey(key)) throw new NotFoundError(LEDGER_ACCOUNT_NOT_FOUND);
    const filter = queryEntryFilter(req, key);
    const format = queryFormat(req, ['csv'] as const);
    const { limit, after } = pageRequest(req, entryKey, LEDGER_ENTRIES_PAGE);
    if (format === 'csv') {
      // The whole range (from the cursor, when given): `limit` sizes pages of the JSON list only.
      await sendDownload(
        res,
        { fileName: `ledger-${key}-entries.csv`, contentType: 'text/csv; charset=utf-8' },
        (out, flush) => writeEntriesCsv(deps.store, allEntries(deps.pool, filter, ENTRIES_CSV_PAGE, after), out, flush),
        deps.logger,
      );
      return;
    }
    const page = pageOf(await queryEntries(deps.pool, filter, limit + 1, after), limit, entryKeyOf);
    res.json({ data: page.rows.map((row) => ledgerEntryJson(deps.store, row)), next: page.next });
  });

  router.get('/reconciliation', async (_req, res) => {
    res.json({ data: await reconcile(deps.pool) });
  });

  router.get('/days', async (req, res) => {
    const { limit, after } = pageRequest(req, dayKey, LEDGER_DAYS_PAGE);
    const page = pageOf(await queryDays(deps.pool, limit + 1, after), limit, (day) => ({ businessDate: day.businessDate }));
    res.json({ data: page.rows, next: page.next });
  });

  return router;
}

/** GET /api/audit/ledger/… for auditors and admins (customers 403, no token 401). Read only. */
export function createLedgerRouter(deps: AppDeps): Router {
  const router = Router();
  router.use(
    '/audit/ledger',
    requireAuth(deps),
    requireRole('auditor', 'admin'),
    ledgerRoutes({ pool: deps.pool, store: deps.store, logger: deps.logger, routingNumber: deps.config.BANK_ROUTING_NUMBER, ...(deps.now ? { now: deps.now } : {}) }),
  );
  return router;
}
