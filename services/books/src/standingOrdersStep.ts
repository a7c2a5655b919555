import { runDueStandingOrders, type StandingOrderRunnerDeps } from '@bank/transfers';
import type { CobStepRunner } from './cobPipeline';

/** The COB's first step: the standing orders due up to the date closed and not yet settled, paid on that business date. */
export function standingOrdersStep(deps: StandingOrderRunnerDeps): CobStepRunner {
  return async (businessDate, today) => {
    const outcomes = await runDueStandingOrders(deps, { through: businessDate, today });
    const summary: Record<string, number> = { paid: 0, failed: 0, missed: 0 };
    for (const { outcome } of outcomes) summary[outcome.status] = (summary[outcome.status] ?? 0) + 1;
    if (outcomes.length > 0) deps.logger?.info({ businessDate, ...summary }, 'COB: standing orders settled');
    return summary;
  };
}
