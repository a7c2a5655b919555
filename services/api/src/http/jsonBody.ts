import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { BadRequestError, HttpError, invalidField } from './httpErrors';
import { hasUnstorableText, UNSTORABLE_TEXT_MESSAGE } from './storableText';

/** Every JSON body, except on the upload routes: no route of the contract needs more. */
export const JSON_BODY_LIMIT = '100kb';
/** The upload routes (verification, profile picture), after authentication: three 10 MB images as base64 data URLs. */
export const UPLOAD_BODY_LIMIT = '45mb';
/** Deeper than any request of the contract (location.address is 2); deeper bodies are refused before any use. */
export const MAX_BODY_DEPTH = 32;
export const TOO_DEEP_MESSAGE = 'Request body is nested too deeply';

const JSON_TYPES = ['application/json', 'application/*+json'];

export type BodyProblem = { readonly kind: 'too-deep' } | { readonly kind: 'unstorable-text'; readonly path: string };

/**
 * The first reason to refuse a parsed body before any use: nesting deeper than `maxDepth`, or a key or string that
 * PostgreSQL cannot store (NUL, unpaired surrogates). Iterative: a hostile body must not exhaust the stack.
 */
export function bodyProblem(value: unknown, maxDepth: number): BodyProblem | undefined {
  const stack: [unknown, number, string][] = [[value, 0, '']];
  while (stack.length > 0) {
    const [node, depth, path] = stack.pop()!;
    if (typeof node === 'string') {
      if (hasUnstorableText(node)) return { kind: 'unstorable-text', path };
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= maxDepth) return { kind: 'too-deep' };
    for (const [key, child] of Object.entries(node)) {
      const childPath = path ? `${path}.${key}` : key;
      if (hasUnstorableText(key)) return { kind: 'unstorable-text', path: childPath };
      stack.push([child, depth + 1, childPath]);
    }
  }
  return undefined;
}

const requireJson = (req: Request, _res: Response, next: NextFunction): void => {
  const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
  if (hasBody && !req.is(JSON_TYPES)) {
    next(new HttpError(415, 'Content-Type must be application/json'));
    return;
  }
  next();
};

const checkedBody = (req: Request, _res: Response, next: NextFunction): void => {
  req.body ??= {};
  const problem = bodyProblem(req.body, MAX_BODY_DEPTH);
  if (problem?.kind === 'too-deep') return next(new BadRequestError(TOO_DEEP_MESSAGE));
  if (problem?.kind === 'unstorable-text') return next(invalidField(problem.path, UNSTORABLE_TEXT_MESSAGE));
  next();
};

export interface JsonBodyOptions {
  /**
   * Requests whose body is left unread here: their route parses it after authentication, with the upload limit
   * (uploadJsonBody). Only their Content-Type is checked.
   */
  readonly defer?: (req: Request) => boolean;
  /** Requests whose body is not JSON (a NACHA file, text/plain): left entirely to their route, type included. */
  readonly notJson?: (req: Request) => boolean;
}

/**
 * JSON bodies only: a request that carries a body of another type gets 415; a body over 100 kB 413, malformed JSON,
 * nesting deeper than 32 levels or text PostgreSQL cannot store (NUL, unpaired surrogates) 400 (all through the
 * error handler, in the contract's error shape). Requests without a body pass with `req.body = {}`.
 */
export function jsonBody(options: JsonBodyOptions = {}): RequestHandler[] {
  const parse = express.json({ limit: JSON_BODY_LIMIT, type: JSON_TYPES });
  const unlessDeferred =
    (handler: RequestHandler): RequestHandler =>
    (req, res, next) =>
      options.defer?.(req) ? next() : handler(req, res, next);
  const unlessText =
    (handler: RequestHandler): RequestHandler =>
    (req, res, next) =>
      options.notJson?.(req) ? next() : handler(req, res, next);
  return [unlessText(requireJson), unlessText(unlessDeferred(parse)), unlessText(unlessDeferred(checkedBody))];
}

/** The upload routes' parser (up to 45 MB), mounted after requireAuth and the role check: nobody else gets it. */
export function uploadJsonBody(): RequestHandler[] {
  return [requireJson, express.json({ limit: UPLOAD_BODY_LIMIT, type: JSON_TYPES }), checkedBody];
}
