/**
 * The projector on its own: `npm run projector` (docs/operations.md, "The projector process"). Runs until
 * SIGTERM/SIGINT; several may run (one applies, the others stand by). Exit status 1 when it stopped on an event it
 * cannot apply (the error is logged), 0 after a signal.
 */
import { createEventStore } from '@bank/eventstore';
import { createLogger, createPool, ensureDatabase, loadConfig } from '@bank/platform';
import { createServer } from 'node:http';
import { parseProjectorSettings } from './projectorConfig';
import { startProjector } from './runner/projectorRunner';

async function main(): Promise<void> {
  const config = loadConfig();
  const settings = parseProjectorSettings(process.env);
  const logger = createLogger('projector', config.LOG_LEVEL);
  await ensureDatabase(config.DATABASE_URL);
  const pool = createPool(config.DATABASE_URL, settings.PROJECTOR_POOL_SIZE);
  const store = await createEventStore(config, { pool, logger });
  const projector = startProjector({ pool, store, logger, batchSize: settings.PROJECTOR_MAX_BATCH });
  await projector.ready;

  const port = settings.PROJECTOR_METRICS_PORT;
  const server = port
    ? createServer((request, response) => {
        if (request.url !== '/metrics') return void response.writeHead(404).end();
        projector.metrics.registry.metrics().then(
          (text) => response.writeHead(200, { 'Content-Type': projector.metrics.registry.contentType }).end(text),
          () => response.writeHead(500).end(),
        );
      }).listen(port)
    : undefined;
  logger.info({ metricsPort: port, maxBatch: settings.PROJECTOR_MAX_BATCH, state: projector.status().state }, 'projector process running');

  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    server?.close();
    await projector.stop();
    await store.close();
    await pool.end();
    process.exit(code);
  };
  process.on('SIGTERM', () => void shutdown(0));
  process.on('SIGINT', () => void shutdown(0));
  const { error } = await projector.done;
  if (error) {
    logger.fatal({ err: error }, 'projector stopped on an event it cannot apply');
    await shutdown(1);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
