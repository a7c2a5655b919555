import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import type { AppDeps } from '../appDeps';

type MetricsDeps = Pick<AppDeps, 'metrics' | 'extraMetricRegistries' | 'logger'>;

/** The API's registry merged with the projector's and the worker's (those of the same process). */
export function metricsRegistry(deps: Pick<AppDeps, 'metrics' | 'extraMetricRegistries'>): Registry {
  return deps.extraMetricRegistries?.length ? Registry.merge([deps.metrics.registry, ...deps.extraMetricRegistries]) : deps.metrics.registry;
}

export interface MetricsServer {
  readonly server: Server;
  /** e.g. http://127.0.0.1:9464/metrics */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Prometheus metrics on a port of their own (METRICS_PORT), bound to METRICS_HOST (loopback by default), never under
 * /api: what they tell (routes, volumes, failures, lag) is for operators, and the public port does not serve them.
 * GET /metrics only; anything else is 404.
 */
export async function startMetricsServer(deps: MetricsDeps, options: { readonly port: number; readonly host: string }): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
      return;
    }
    const registry = metricsRegistry(deps);
    registry
      .metrics()
      .then((text) => res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).end(text))
      .catch((error: unknown) => {
        deps.logger.error({ err: error }, 'Metrics failed');
        res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}/metrics`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
