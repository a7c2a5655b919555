import { createLogger, ensureDatabase, loadConfig } from '@bank/platform';
import { createApp } from './app';

const logger = createLogger('api');

async function main(): Promise<void> {
  const config = loadConfig();
  await ensureDatabase(config.DATABASE_URL);
  const app = createApp();
  const server = app.listen(config.PORT, () => {
    logger.info({ port: config.PORT }, `Bank listening on http://localhost:${config.PORT}`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, error instanceof Error ? error.message : 'Start-up failed');
  process.exit(1);
});
