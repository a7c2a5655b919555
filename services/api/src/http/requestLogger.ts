import type { Logger } from '@bank/platform';
import type { RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';

/** One log line per request (pino-http) with the request id; no headers, bodies or tokens. */
export function requestLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (_req, res) => String((res as unknown as { locals?: { requestId?: string } }).locals?.requestId ?? ''),
    serializers: {
      req: (req: { id?: unknown; method?: string; url?: string }) => ({ id: req.id, method: req.method, url: req.url?.split('?')[0] }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug'),
  }) as unknown as RequestHandler;
}
