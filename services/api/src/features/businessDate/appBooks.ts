import { createBusinessCalendar, createCob, interestStep, parseBooksSettings, standingOrdersStep, type BooksSettings, type BusinessCalendar, type Cob } from '@bank/books';
import { parseTransferSettings } from '@bank/transfers';
import type { AppDeps } from '../../appDeps';

/** The API's business calendar and COB: the business date its money commands carry, and the manual-mode advance. */
export interface AppBooks {
  readonly calendar: BusinessCalendar;
  readonly cob: Cob;
}

const built = new WeakMap<AppDeps, AppBooks>();

/**
 * The books of these deps: `deps.books` (the composition root builds them once per process), else built once from
 * the environment's settings (BUSINESS_DATE_MODE, …) on the deps' command handler, store and clock — the same
 * calendar and COB as the worker's, so an advance from the API and the worker's tick share the COB lock.
 */
export function booksOf(deps: AppDeps): AppBooks {
  if (deps.books) return deps.books;
  const cached = built.get(deps);
  if (cached) return cached;
  const books = createAppBooks(deps, parseBooksSettings({ ...process.env, NODE_ENV: deps.config.NODE_ENV }));
  built.set(deps, books);
  return books;
}

/** A calendar and a COB on the deps' command handler, store, pool and clock, with these settings. */
export function createAppBooks(deps: Omit<AppDeps, 'books'>, settings: BooksSettings): AppBooks {
  const clock = { now: (): Date => deps.now?.() ?? new Date() };
  const calendar = createBusinessCalendar({ mode: settings.BUSINESS_DATE_MODE, commands: deps.commands, clock, startDate: settings.BUSINESS_DATE_START });
  const cob = createCob({
    mode: settings.BUSINESS_DATE_MODE,
    commands: deps.commands,
    store: deps.store,
    pool: deps.pool,
    clock,
    startDate: settings.BUSINESS_DATE_START,
    steps: {
      standingOrders: standingOrdersStep({
        commands: deps.commands,
        pool: deps.pool,
        transfer: { signals: deps.signals, creditWaitMs: 0 },
        clock,
        catchUpDays: parseTransferSettings(process.env).STANDING_ORDER_CATCH_UP_DAYS,
        logger: deps.logger,
      }),
      interest: interestStep({
        commands: deps.commands,
        store: deps.store,
        pool: deps.pool,
        clock,
        projectorWaitMs: settings.COB_PROJECTOR_WAIT_MS,
        paymentConcurrency: settings.INTEREST_PAYMENT_CONCURRENCY,
        logger: deps.logger.child({ component: 'interest' }),
      }),
    },
    logger: deps.logger.child({ component: 'cob' }),
  });
  return { calendar, cob };
}

/** The business date of a money command now. */
export function businessDateOf(deps: AppDeps): Promise<string> {
  return booksOf(deps).calendar.current();
}
