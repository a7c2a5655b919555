/**
 * `npm run projections:rebuild`: builds the read models afresh from position 0 beside the live ones and swaps them
 * in (docs/projections.md). The API keeps answering throughout; a running projector pauses only for the swap.
 */
import { createEventStore } from '@bank/eventstore';
import { createLogger, createPool, ensureDatabase, loadConfig } from '@bank/platform';
import { createProjectorMetrics } from '../metrics/projectorMetrics';
import { rebuildProjections } from '../rebuild/rebuildProjections';
import { verifyReadModels } from '../verify/verifyReadModels';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('projections-rebuild', config.LOG_LEVEL);
  await ensureDatabase(config.DATABASE_URL);
  const pool = createPool(config.DATABASE_URL, 4);
  const store = await createEventStore(config, { pool, logger });
  try {
    let reported = 0;
    const result = await rebuildProjections({
      pool,
      store,
      logger,
      metrics: createProjectorMetrics(),
      onProgress: ({ events }) => {
        if (events - reported >= 50_000) {
          reported = events;
          logger.info({ events }, 'rebuild progress');
        }
      },
    });
    const verified = await verifyReadModels({ pool, store });
    console.log(
      `Rebuilt the read models: ${result.events} events in ${(result.durationMs / 1000).toFixed(1)} s ` +
        `(${result.eventsPerSecond} events/s), position ${result.position ?? '(empty log)'}; ` +
        `projector paused ${result.swapMs.toFixed(0)} ms for the swap. Verification: ${verified.ok ? 'ok' : `${verified.mismatches.length} mismatches`} ` +
        `over ${verified.checked} accounts.`,
    );
    if (!verified.ok) process.exitCode = 2;
  } finally {
    await store.close();
    await pool.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
