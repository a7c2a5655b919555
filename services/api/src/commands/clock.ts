import type { AppDeps } from '../appDeps';

/** The current instant as commands carry it (ISO-8601). */
export function nowIso(deps: Pick<AppDeps, 'now'>): string {
  return (deps.now?.() ?? new Date()).toISOString();
}
