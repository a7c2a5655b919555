/**
 * `npm run worker`: the transfer process workers, the sweeper and the periodic audit, alone in a process
 * (the one-process `npm start` calls startWorker itself). SIGTERM / SIGINT stop it gracefully.
 */
import { createServer, type Server } from 'node:http';
import { createEventStore } from '@bank/eventstore';
import { createLogger, createPool, ensureDatabase } from '@bank/platform';
import { faultHookFromSpec } from './faults';
import { startWorker } from './startWorker';
import { parseWorkerConfig } from './workerConfig';

const logger = createLogger('worker');

async function main(): Promise<void> {
  const config = parseWorkerConfig(process.env);
  await ensureDatabase(config.DATABASE_URL);
  const pool = createPool(config.DATABASE_URL, 10);
  const store = await createEventStore(config, { pool });
  const worker = await startWorker({
    config,
    store,
    pool,
    logger,
    fault: faultHookFromSpec(config.WORKER_FAULT, config.NODE_ENV),
  });
  let metricsServer: Server | undefined;
  if (config.WORKER_METRICS_PORT !== undefined) {
    metricsServer = createServer((req, res) => {
      if (req.url !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      worker.metrics.registry
        .metrics()
        .then((text) => res.writeHead(200, { 'Content-Type': worker.metrics.registry.contentType }).end(text))
        .catch(() => res.writeHead(500).end());
    }).listen(config.WORKER_METRICS_PORT);
  }
  process.stdout.write('WORKER READY\n');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'Worker stopping');
    metricsServer?.close();
    worker
      .stop()
      .then(() => store.close())
      .then(() => pool.end())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'Worker did not stop cleanly');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, error instanceof Error ? error.message : 'Worker start-up failed');
  process.exit(1);
});
