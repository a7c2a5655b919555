import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DEFAULT_CONSISTENCY_TIMEOUT_MS, type AppDeps } from '../appDeps';
import { invalidField } from './httpErrors';
import { STALE_HEADER } from './sendCommandResult';

export const CONSISTENT_POSITION_HEADER = 'X-Consistent-Position';

const TOKEN = /^\d{1,20}$/;

/**
 * Read-your-writes for queries: a GET carrying `X-Consistent-Position: N` (a token from X-Event-Position) waits until
 * the projector has applied that event (as the pool the query reads sees it: the replica's with DATABASE_READ_URL), at
 * most 2 s; after that it is answered anyway with `X-Stale: true`.
 *
 * A token that names no stored event (beyond the store's head, from another deployment, made up) is answered at once
 * with `X-Stale: true`: nothing could ever satisfy it, so it is not waited for. Every event a command reported in
 * X-Event-Position is committed before the answer leaves, so it resolves on every instance of the same store.
 */
export function consistentRead(deps: Pick<AppDeps, 'store' | 'projection' | 'readProjection' | 'consistencyTimeoutMs'>): RequestHandler {
  // The checkpoint as the pool the query will read sees it (the replica's with DATABASE_READ_URL): never ahead of its rows.
  const projection = deps.readProjection ?? deps.projection;
  const timeoutMs = deps.consistencyTimeoutMs ?? DEFAULT_CONSISTENCY_TIMEOUT_MS;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const token = req.get(CONSISTENT_POSITION_HEADER);
    if ((req.method !== 'GET' && req.method !== 'HEAD') || token === undefined) return next();
    if (!TOKEN.test(token.trim())) throw invalidField(CONSISTENT_POSITION_HEADER, `${CONSISTENT_POSITION_HEADER} must be a position number`);
    const position = await deps.store.resolvePositionToken(token.trim());
    const applied = position ? await projection.waitForPosition(position, timeoutMs) : false;
    if (!applied) res.setHeader(STALE_HEADER, 'true');
    next();
  };
}
