import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export const API_METRIC_PREFIX = 'bank_api_';

export type CommandOutcome = 'appended' | 'unchanged' | 'refused' | 'conflict' | 'error';

export interface ApiMetrics {
  readonly registry: Registry;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** Commands by name (the domain command type) and outcome. */
  readonly commands: Counter<'command' | 'outcome'>;
}

/** The API's Prometheus metrics on their own registry; `processMetrics` adds the Node.js process metrics too. */
export function createApiMetrics(options: { readonly registry?: Registry; readonly processMetrics?: boolean } = {}): ApiMetrics {
  const registry = options.registry ?? new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: API_METRIC_PREFIX });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: `${API_METRIC_PREFIX}http_requests_total`,
      help: 'HTTP requests by method, route and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
    httpDuration: new Histogram({
      name: `${API_METRIC_PREFIX}http_request_duration_seconds`,
      help: 'HTTP request latency by method, route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    commands: new Counter({
      name: `${API_METRIC_PREFIX}commands_total`,
      help: 'Commands by type and outcome (appended, unchanged, refused, conflict, error)',
      labelNames: ['command', 'outcome'],
      registers,
    }),
  };
}

/** The route template a request matched (`/api/user/admin/:id`), or `unmatched` (404s, static files). */
function routeOf(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  if (!route || typeof route.path !== 'string') return 'unmatched';
  return `${req.baseUrl}${route.path}`;
}

/** Counts and times every request once it has been answered. */
export function httpMetrics(metrics: ApiMetrics): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const stop = metrics.httpDuration.startTimer();
    res.on('finish', () => {
      const labels = { method: req.method, route: routeOf(req), status: String(res.statusCode) };
      stop(labels);
      metrics.httpRequests.inc(labels);
    });
    next();
  };
}
