import { runDueStandingOrders, type StandingOrderRunnerDeps } from '@bank/transfers';
import type { CobStepRunner } from './cobPipeline';

/** The COB's first step: the standing orders due up to the date closed and not yet settled, paid on that business date. */
export function standingOrdersStep(deps: StandingOrderRunnerDeps): CobStepRunner {
  return async (businessDate, today) => {
    const outcomes = await runDueStandingOrders(deps, { through: businessDate, today });
    if (outcomes.length > 0) deps.logger?.info({ businessDate, occurrences: outcomes.length }, 'COB: standing orders settled');
  };
}
