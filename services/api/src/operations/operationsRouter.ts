import { Router } from 'express';
import { Registry } from 'prom-client';
import type { AppDeps } from '../appDeps';
import { checkReadiness } from './readiness';

/** GET /health (liveness), GET /ready (503 until database, Redis, event store and projector are fine), GET /metrics. */
export function createOperationsRouter(deps: AppDeps): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    res.json({ data: { status: 'ok' } });
  });
  router.get('/ready', async (_req, res) => {
    const readiness = await checkReadiness(deps);
    const data = { status: readiness.ready ? 'ready' : 'not ready', ...readiness.checks };
    if (readiness.ready) res.json({ data });
    else res.status(503).json({ message: 'Not ready', data });
  });
  router.get('/metrics', async (_req, res) => {
    const registry = deps.extraMetricRegistries?.length ? Registry.merge([deps.metrics.registry, ...deps.extraMetricRegistries]) : deps.metrics.registry;
    res.setHeader('Content-Type', registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.send(await registry.metrics());
  });
  return router;
}
