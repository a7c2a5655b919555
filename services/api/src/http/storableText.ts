import type { NextFunction, Request, Response } from 'express';
import { BadRequestError, invalidField } from './httpErrors';

export const UNSTORABLE_TEXT_MESSAGE = 'Text must not contain NUL characters or unpaired surrogates';

/** NUL, or a UTF-16 surrogate without its pair: PostgreSQL stores neither in text or jsonb (an error, not a refusal). */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function hasUnstorableText(text: string): boolean {
  return text.includes('\u0000') || UNPAIRED_SURROGATE.test(text);
}

/**
 * The URL's part of the same rule (the body's is in jsonBody): a path with an encoded NUL, or a query string whose
 * names or values hold NUL or unpaired surrogates, is 400 before any route reads it. Every text a client sends may
 * end up in a query or an event; refusing it here keeps "cannot be stored" a 400 instead of a database error (500).
 */
export function storableText() {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (/%00/i.test(req.path) || hasUnstorableText(req.path)) return next(new BadRequestError(UNSTORABLE_TEXT_MESSAGE));
    for (const [name, value] of Object.entries(req.query)) {
      const values = Array.isArray(value) ? value : [value];
      if (hasUnstorableText(name) || values.some((item) => typeof item === 'string' && hasUnstorableText(item))) {
        return next(invalidField(name, UNSTORABLE_TEXT_MESSAGE));
      }
    }
    next();
  };
}
