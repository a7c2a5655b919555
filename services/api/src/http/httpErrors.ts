/** A field-level problem, as listed in an error body's `errors`. */
export interface FieldIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * An error that IS the answer: the error handler sends `{message, errors?}` with `status` (and its headers).
 * Throw one from any handler or middleware; Express 5 forwards rejected promises to the error handler.
 */
export class HttpError extends Error {
  override readonly name: string = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: readonly FieldIssue[],
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export class BadRequestError extends HttpError {
  override readonly name = 'BadRequestError';
  constructor(message: string, errors?: readonly FieldIssue[]) {
    super(400, message, errors);
  }
}

/** 400 for one field: `{message, errors: [{path, message}]}`. */
export function invalidField(path: string, message: string): BadRequestError {
  return new BadRequestError(message, [{ path, message }]);
}

export class UnauthorizedError extends HttpError {
  override readonly name = 'UnauthorizedError';
  constructor(message = 'Authentication required') {
    super(401, message, undefined, { 'WWW-Authenticate': 'Bearer' });
  }
}

export class ForbiddenError extends HttpError {
  override readonly name = 'ForbiddenError';
  constructor(message = 'You are not allowed to do this') {
    super(403, message);
  }
}

export class NotFoundError extends HttpError {
  override readonly name = 'NotFoundError';
  constructor(message = 'Not found') {
    super(404, message);
  }
}

export class ConflictError extends HttpError {
  override readonly name = 'ConflictError';
  constructor(message: string) {
    super(409, message);
  }
}

export class UnprocessableError extends HttpError {
  override readonly name = 'UnprocessableError';
  constructor(message: string) {
    super(422, message);
  }
}

export class TooManyRequestsError extends HttpError {
  override readonly name = 'TooManyRequestsError';
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

export class ServiceUnavailableError extends HttpError {
  override readonly name = 'ServiceUnavailableError';
  constructor(message = 'Service temporarily unavailable', retryAfterSeconds = 1) {
    super(503, message, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }
}
