import { createBusinessCalendar, createCob, interestStep, standingOrdersStep, type BooksSettings, type BusinessCalendar, type Cob } from '@bank/books';
import { achFileSettingsOf, settleAchFiles, type AchCycleDeps } from '@bank/ach';
import type { AppDeps } from '../../appDeps';

/** The API's business calendar and COB: the business date its money commands carry, and the manual-mode advance. */
export interface AppBooks {
  readonly calendar: BusinessCalendar;
  readonly cob: Cob;
}

/**
 * The books of these deps, built once per process by the composition root: the worker's calendar and COB when the
 * worker runs in the process (an advance from the API and the worker's tick then share the COB lock), else
 * createAppBooks's on the API's command handler, store and clock.
 */
export function booksOf(deps: Pick<AppDeps, 'books'>): AppBooks {
  return deps.books;
}

/** A calendar and a COB on the deps' command handler, store, pool and clock, with these settings (BUSINESS_DATE_*). */
export function createAppBooks(deps: Omit<AppDeps, 'books'>, settings: BooksSettings): AppBooks {
  const clock = { now: (): Date => deps.now?.() ?? new Date() };
  const calendar = createBusinessCalendar({ mode: settings.BUSINESS_DATE_MODE, commands: deps.commands, clock, startDate: settings.BUSINESS_DATE_START });
  const achCycle = achCycleOf(deps, () => calendar.current());
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
        catchUpDays: deps.transfers.standingOrderCatchUpDays,
        logger: deps.logger,
      }),
      achSettlement: async (date) => ({ ...(await settleAchFiles(achCycle, date)) }),
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

/** The ACH cycle on the deps' command handler and pool, with the bank's routing number (docs/ach.md). */
export function achCycleOf(deps: Pick<AppDeps, 'commands' | 'pool' | 'config' | 'logger' | 'now'>, businessDate: () => Promise<string>): AchCycleDeps {
  return {
    commands: deps.commands,
    pool: deps.pool,
    settings: achFileSettingsOf(deps.config.BANK_ROUTING_NUMBER),
    businessDate,
    ...(deps.now ? { now: deps.now } : {}),
    logger: deps.logger.child({ component: 'ach' }),
  };
}

/** The business date of a money command now. */
export function businessDateOf(deps: AppDeps): Promise<string> {
  return booksOf(deps).calendar.current();
}
