import type { Role } from '@bank/domain';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ForbiddenError } from '../http/httpErrors';
import { authOf } from './authContext';

/** After requireAuth: only these roles pass; anyone else signed in gets 403. */
export function requireRole(...roles: readonly Role[]): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const auth = authOf(req);
    if (!roles.includes(auth.role)) throw new ForbiddenError();
    next();
  };
}
