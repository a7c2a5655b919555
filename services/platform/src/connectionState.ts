import type { Logger } from 'pino';
import { isServiceUnavailable } from './unavailable';

/**
 * Logs a backing service's connection state once per change — "lost" on the first failure, "back" when it answers
 * again — instead of once per reconnect attempt (ioredis and BullMQ report every attempt, many per second while a
 * server is down). Errors that are not about the connection are logged as they come.
 */
export interface ConnectionState {
  failed(error: unknown): void;
  ok(): void;
}

export function connectionState(logger: Pick<Logger, 'warn' | 'info'>, service: string, address?: string): ConnectionState {
  let down = false;
  let since = 0;
  return {
    failed(error) {
      if (!isServiceUnavailable(error)) {
        logger.warn({ err: error, service }, `${service} error`);
        return;
      }
      if (down) return;
      down = true;
      since = Date.now();
      logger.warn({ err: error, service, address }, `${service} unreachable${address ? ` at ${address}` : ''}; retrying with backoff (logged again when it is back)`);
    },
    ok() {
      if (!down) return;
      down = false;
      logger.info({ service, address, downMs: Date.now() - since }, `${service} is back`);
    },
  };
}

/** Wires a connection state to an ioredis client: 'error' events are failures, 'ready' is back. */
export function watchRedis(redis: { on(event: 'error', listener: (error: Error) => void): unknown; on(event: 'ready', listener: () => void): unknown }, logger: Pick<Logger, 'warn' | 'info'>, name: string, address?: string): void {
  const state = connectionState(logger, name, address);
  redis.on('error', (error) => state.failed(error));
  redis.on('ready', () => state.ok());
}
