import type { Logger } from 'pino';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { UNAVAILABLE_MESSAGE } from './errorHandler';
import { requestIdOf } from './requestId';

/** Set on `res.locals` once the deadline has answered: whatever the request's work does afterwards is dropped. */
const PASSED = 'requestDeadlinePassed';

export function deadlinePassed(res: Response): boolean {
  return res.locals[PASSED] === true;
}

/**
 * Answers 503 (Retry-After: 2, the usual "briefly unavailable" body) when a request has not been answered within `ms`:
 * a backing service that stops answering — a commit waiting for a synchronous standby that is gone, a database or
 * Redis whose packets are dropped — never holds a client longer than that.
 *
 * The request's work is not cancelled (cancelling a commit that waits for the standby would leave it committed
 * locally, unreplicated, and report success): it goes on, and whatever it answers later is dropped. A client retries
 * with its Idempotency-Key; a command that did commit in the meantime is found by its event ids and answered once.
 * Mount first on the API router (before authentication, which may read the database). `skip` leaves requests alone
 * that may legitimately take longer (uploads, audit replays and exports).
 */
export function requestDeadline(options: { readonly ms: number; readonly logger: Pick<Logger, 'warn'>; readonly skip?: (req: Request) => boolean }): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (options.skip?.(req)) return next();
    const started = Date.now();
    // Express's own json, taken before later middleware wraps it (the idempotency record's writer answers only after
    // a Redis round trip): the 503 is sent at once, and the claim of its key is released when the response closes.
    const json = res.json;
    const timer = setTimeout(() => {
      if (res.headersSent || res.writableEnded) return;
      const requestId = requestIdOf(res);
      options.logger.warn({ requestId, method: req.method, url: req.originalUrl, ms: Date.now() - started }, 'Request deadline passed: answered 503, its work goes on');
      res.status(503).set('Retry-After', '2');
      json.call(res, { message: UNAVAILABLE_MESSAGE, requestId });
      res.locals[PASSED] = true;
      // The work's own answer, when it comes, must not touch a response already sent.
      const ignored = function (this: Response) {
        return this;
      };
      res.json = ignored;
      res.send = ignored;
      res.setHeader = ignored as unknown as Response['setHeader'];
      res.status = ignored as unknown as Response['status'];
    }, options.ms);
    timer.unref();
    res.on('close', () => clearTimeout(timer));
    next();
  };
}
