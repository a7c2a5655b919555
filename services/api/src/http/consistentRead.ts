import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DEFAULT_CONSISTENCY_TIMEOUT_MS, type AppDeps } from '../appDeps';
import { invalidField } from './httpErrors';
import { STALE_HEADER } from './sendCommandResult';

export const CONSISTENT_POSITION_HEADER = 'X-Consistent-Position';

const TOKEN = /^\d{1,20}$/;
const RESOLVE_RETRY_MS = 25;

/**
 * Read-your-writes for queries: a GET carrying `X-Consistent-Position: N` (a token from X-Event-Position) waits until
 * the projector has applied that event, at most 2 s; after that it is answered anyway with `X-Stale: true`.
 */
export function consistentRead(deps: Pick<AppDeps, 'store' | 'projection' | 'consistencyTimeoutMs'>): RequestHandler {
  const timeoutMs = deps.consistencyTimeoutMs ?? DEFAULT_CONSISTENCY_TIMEOUT_MS;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const token = req.get(CONSISTENT_POSITION_HEADER);
    if ((req.method !== 'GET' && req.method !== 'HEAD') || token === undefined) return next();
    if (!TOKEN.test(token.trim())) throw invalidField(CONSISTENT_POSITION_HEADER, `${CONSISTENT_POSITION_HEADER} must be a position number`);
    const deadline = Date.now() + timeoutMs;
    let position = await deps.store.resolvePositionToken(token.trim());
    // A token from another API instance may name an event this instance's store does not show yet.
    while (!position && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, RESOLVE_RETRY_MS));
      position = await deps.store.resolvePositionToken(token.trim());
    }
    const applied = position ? await deps.projection.waitForPosition(position, Math.max(0, deadline - Date.now())) : false;
    if (!applied) res.setHeader(STALE_HEADER, 'true');
    next();
  };
}
