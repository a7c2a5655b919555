/** The little an adapter logs; a pino Logger fits. */
export interface EventStoreLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export const silentLogger: EventStoreLogger = {
  warn: () => undefined,
  error: () => undefined,
};
