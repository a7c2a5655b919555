import type { Response } from 'express';
import type { AppDeps } from '../appDeps';

/** createApp stores its deps on app.locals, so helpers that only get `res` (sendCommandResult) can reach them. */
export function depsOf(res: Response): AppDeps {
  const deps = (res.app.locals as { deps?: AppDeps }).deps;
  if (!deps) throw new Error('AppDeps missing: build the app with createApp(deps)');
  return deps;
}
