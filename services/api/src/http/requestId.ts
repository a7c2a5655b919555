import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const SAFE_ID = /^[\w.:-]{1,128}$/;

/** The request's id: the client's X-Request-Id when it is a sane token, else a fresh UUID. Echoed as X-Request-Id. */
export function requestId() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.get('X-Request-Id');
    const id = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    next();
  };
}

export function requestIdOf(res: Response): string {
  const id: unknown = res.locals.requestId;
  return typeof id === 'string' ? id : 'unknown';
}
