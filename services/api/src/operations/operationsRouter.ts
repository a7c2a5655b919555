import { Router } from 'express';
import type { AppDeps } from '../appDeps';
import { checkReadiness } from './readiness';

/**
 * GET /health (liveness), GET /ready (503 until database, Redis, event store and projector are fine). The metrics are
 * not here: they have a port of their own (metricsServer.ts).
 */
export function createOperationsRouter(deps: AppDeps): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    res.json({ data: { status: 'ok' } });
  });
  router.get('/ready', async (_req, res) => {
    if (deps.draining?.()) {
      res.status(503).json({ message: 'Not ready', data: { status: 'stopping' } });
      return;
    }
    const readiness = await checkReadiness(deps);
    const data = { status: readiness.ready ? 'ready' : 'not ready', ...readiness.checks };
    if (readiness.ready) res.json({ data });
    else res.status(503).json({ message: 'Not ready', data });
  });
  return router;
}
