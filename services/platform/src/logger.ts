import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured logs (pino). JSON lines for machines; on a terminal (stdout is a TTY) the same logs made readable with
 * pino-pretty, so a developer's `npm start` is not a wall of JSON. LOG_FORMAT=json or LOG_FORMAT=pretty forces one.
 */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info')): Logger {
  const format = process.env.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json');
  if (format === 'pretty' && level !== 'silent') {
    return pino({
      name,
      level,
      base: { service: name },
      transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' } },
    });
  }
  return pino({ name, level, base: { service: name } });
}
