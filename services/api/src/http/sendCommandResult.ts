import { comparePositions, type Position } from '@bank/eventstore';
import type { Response } from 'express';
import { DEFAULT_CONSISTENCY_TIMEOUT_MS } from '../appDeps';
import { depsOf } from './appLocals';

export const EVENT_POSITION_HEADER = 'X-Event-Position';
export const STALE_HEADER = 'X-Stale';

/** A body, or a function computing it once the read models include the command's events (or the wait timed out). */
export type CommandBody = unknown | ((outcome: { readonly stale: boolean }) => unknown);

/** The latest of several positions (undefined entries ignored). */
export function latestPosition(...positions: readonly (Position | undefined)[]): Position | undefined {
  let latest: Position | undefined;
  for (const position of positions) if (position && (!latest || comparePositions(position, latest) > 0)) latest = position;
  return latest;
}

/**
 * Answers a command: `X-Event-Position: <token>` of its last appended event, after waiting (up to 2 s) for the
 * projector to apply it, so that the next query of any client reads this write. When the wait times out the answer
 * still goes out, with `X-Stale: true`. `position` undefined = nothing was appended (no header, no wait).
 * A function `body` is called after the wait (e.g. to read the changed user from the read model).
 */
export async function sendCommandResult(res: Response, status: number, body: CommandBody, position: Position | undefined): Promise<void> {
  const deps = depsOf(res);
  let stale = false;
  if (position) {
    res.setHeader(EVENT_POSITION_HEADER, deps.store.positionToken(position));
    stale = !(await deps.projection.waitForPosition(position, deps.consistencyTimeoutMs ?? DEFAULT_CONSISTENCY_TIMEOUT_MS));
    if (stale) res.setHeader(STALE_HEADER, 'true');
  }
  const payload = typeof body === 'function' ? await (body as (outcome: { stale: boolean }) => unknown)({ stale }) : body;
  res.status(status).json(payload);
}
