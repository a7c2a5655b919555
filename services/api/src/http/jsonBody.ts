import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { HttpError } from './httpErrors';

/** Requests up to 45 MB: three 10 MB images as base64 data URLs, with room to spare. */
export const JSON_BODY_LIMIT = '45mb';

const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * JSON bodies only: a request that carries a body of another type gets 415; a body over the limit 413, malformed
 * JSON 400 (both through the error handler). Requests without a body pass with `req.body = {}`.
 */
export function jsonBody(): RequestHandler[] {
  const parse = express.json({ limit: JSON_BODY_LIMIT, type: JSON_TYPES });
  const requireJson = (req: Request, _res: Response, next: NextFunction): void => {
    const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
    if (hasBody && !req.is(JSON_TYPES)) {
      next(new HttpError(415, 'Content-Type must be application/json'));
      return;
    }
    next();
  };
  const defaultBody = (req: Request, _res: Response, next: NextFunction): void => {
    req.body ??= {};
    next();
  };
  return [requireJson, parse, defaultBody];
}
