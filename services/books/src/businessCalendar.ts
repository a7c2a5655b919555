import type { CommandHandler } from '@bank/commands';
import { businessDayDecider, openBusinessDate, streams, type BusinessDateMode, type BusinessDayState } from '@bank/domain';
import { utcDate, type Clock } from '@bank/platform';

export type { BusinessDateMode };

/** The business date a money command belongs to. */
export interface BusinessCalendar {
  readonly mode: BusinessDateMode;
  /** The open business date for a money command now (calendar: the UTC date; manual: from the businessDays stream). */
  current(): Promise<string>;
}

export interface BusinessCalendarDeps {
  readonly mode: BusinessDateMode;
  readonly commands: CommandHandler;
  readonly clock: Clock;
  /** Manual mode: the first business date when the calendar starts (BUSINESS_DATE_START); default the UTC date then. */
  readonly startDate?: string | undefined;
}

/** The businessDays stream's state, up to date with the store. */
export function readBusinessDays(commands: CommandHandler): Promise<BusinessDayState> {
  return commands.read(businessDayDecider, streams.businessDays(), (state) => state, { fresh: true });
}

/**
 * The businessDays stream's state, the calendar started first when it never was (BusinessCalendarStarted: its first
 * date and mode). Started once bank-wide: the event id derives from the stream, so two starters append one event.
 */
export async function startedBusinessDays(deps: BusinessCalendarDeps): Promise<BusinessDayState> {
  const state = await readBusinessDays(deps.commands);
  if (state.firstDate !== null) return state;
  const now = deps.clock.now();
  const firstDate = deps.mode === 'manual' ? (deps.startDate ?? utcDate(now)) : utcDate(now);
  const result = await deps.commands.execute({
    decider: businessDayDecider,
    streamId: streams.businessDays(),
    decide: (current) => businessDayDecider.decide({ type: 'StartBusinessCalendar', firstDate, mode: deps.mode, now: now.toISOString() }, current),
    context: { commandId: 'business-days:start', metadata: { actorRole: 'system' } },
    commandType: 'StartBusinessCalendar',
  });
  return result.state;
}

/**
 * The bank's business calendar. Calendar mode answers the UTC date of the clock and reads nothing; manual mode
 * answers the businessDays stream's open date (the last closed date + 1), starting the calendar on first use.
 */
export function createBusinessCalendar(deps: BusinessCalendarDeps): BusinessCalendar {
  if (deps.mode === 'calendar') return { mode: 'calendar', current: async () => utcDate(deps.clock.now()) };
  return {
    mode: 'manual',
    async current() {
      const state = await startedBusinessDays(deps);
      return openBusinessDate(state, 'manual', utcDate(deps.clock.now()));
    },
  };
}
