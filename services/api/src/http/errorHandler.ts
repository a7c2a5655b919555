import { isDomainError, MoneyFormatError } from '@bank/domain';
import { isWrongExpectedVersion } from '@bank/eventstore';
import { isServiceUnavailable, type Logger } from '@bank/platform';
import type { NextFunction, Request, Response } from 'express';
import { ZodError } from 'zod';
import { HttpError, type FieldIssue } from './httpErrors';
import { requestIdOf } from './requestId';

export interface ErrorBody {
  readonly message: string;
  readonly errors?: readonly FieldIssue[];
  readonly requestId?: string;
}

export interface MappedError {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers: Readonly<Record<string, string>>;
}

export const MALFORMED_URL_MESSAGE = 'The address is not valid (a malformed %-escape)';
export const UNAVAILABLE_MESSAGE = 'The bank is briefly unavailable, please try again in a moment';

/** Issues of a zod error as the contract lists them: `[{path: 'location.state', message}]`. */
export function zodIssues(error: ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/** The body parser's errors (express.json) carry `type` and `status`. */
function bodyParserError(error: unknown): { type: string; status: number } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { type, status } = error as { type?: unknown; status?: unknown };
  return typeof type === 'string' && typeof status === 'number' ? { type, status } : undefined;
}

/**
 * Maps anything thrown to the answer the contract prescribes. Unknown errors become 500 with a generic message and
 * the request id; their details only go to the log.
 */
export function mapError(error: unknown, requestId: string): MappedError {
  if (error instanceof HttpError) {
    return { status: error.status, body: { message: error.message, ...(error.errors ? { errors: error.errors } : {}) }, headers: error.headers };
  }
  if (error instanceof ZodError) {
    const errors = zodIssues(error);
    return { status: 400, body: { message: errors[0]?.message ?? 'Invalid input', errors }, headers: {} };
  }
  if (error instanceof MoneyFormatError) {
    return { status: 400, body: { message: error.message, errors: [{ path: 'amount', message: error.message }] }, headers: {} };
  }
  if (isDomainError(error)) return { status: error.httpStatus, body: { message: error.message }, headers: {} };
  if (isWrongExpectedVersion(error)) {
    return { status: 409, body: { message: 'The record was changed by another request at the same time, please try again' }, headers: {} };
  }
  // The router could not decode a path parameter (a malformed %-escape such as /files/%): the client's URL is wrong.
  if (error instanceof URIError && (error as URIError & { status?: unknown }).status === 400) {
    return { status: 400, body: { message: MALFORMED_URL_MESSAGE }, headers: {} };
  }
  if (isServiceUnavailable(error)) {
    return { status: 503, body: { message: UNAVAILABLE_MESSAGE, requestId }, headers: { 'Retry-After': '2' } };
  }
  const parser = bodyParserError(error);
  if (parser) {
    if (parser.type === 'entity.too.large') return { status: 413, body: { message: 'Request body is too large' }, headers: {} };
    if (parser.type === 'entity.parse.failed') return { status: 400, body: { message: 'Request body is not valid JSON' }, headers: {} };
    if (parser.type === 'encoding.unsupported' || parser.type === 'charset.unsupported') {
      return { status: 415, body: { message: 'Unsupported content encoding or charset' }, headers: {} };
    }
    if (parser.status >= 400 && parser.status < 500) return { status: parser.status, body: { message: 'Invalid request body' }, headers: {} };
  }
  return { status: 500, body: { message: 'Something went wrong on our side, please try again later', requestId }, headers: {} };
}

/** The last middleware: sends mapped errors, logs the 500s with their stack (server side only). */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) {
      // The request deadline already answered 503 (requestDeadline.ts): the work's late failure has no one to tell.
      if (res.locals.requestDeadlinePassed === true) return;
      return next(error);
    }
    const requestId = requestIdOf(res);
    const mapped = mapError(error, requestId);
    if (mapped.status === 503) logger.warn({ err: error, requestId, method: req.method, url: req.originalUrl }, 'A backing service is unavailable');
    else if (mapped.status >= 500) logger.error({ err: error, requestId, method: req.method, url: req.originalUrl }, 'Request failed');
    res.set(mapped.headers);
    res.status(mapped.status).json(mapped.body);
  };
}
