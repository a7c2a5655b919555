/**
 * `npm start` / `npm run api`: one process with the API (and the web build at /), the projector and the worker.
 * SIGTERM / SIGINT stop it gracefully.
 */
import { createLogger, loadConfig } from '@bank/platform';
import { createApp } from './app';
import { startBankRuntime } from './bankRuntime';
import { ensureFirstAdmin } from './staff/ensureFirstAdmin';

const logger = createLogger('api');

async function main(): Promise<void> {
  const config = loadConfig();
  const runtime = await startBankRuntime(config);
  const app = createApp(runtime.deps);
  const server = app.listen(config.PORT, () => {
    logger.info({ port: config.PORT }, `Bank listening on http://localhost:${config.PORT}`);
  });
  await ensureFirstAdmin(runtime.deps);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'Stopping');
    server.close();
    server.closeIdleConnections();
    runtime
      .stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'Did not stop cleanly');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, error instanceof Error ? error.message : 'Start-up failed');
  process.exit(1);
});
