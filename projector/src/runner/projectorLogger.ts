/** The little the projector logs; a pino Logger fits. */
export interface ProjectorLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export const silentProjectorLogger: ProjectorLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
