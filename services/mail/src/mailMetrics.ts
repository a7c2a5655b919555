import { Counter, Registry } from 'prom-client';

/** bank_mail_messages_total{kind, result}: sent, retried (a temporary failure), failed (a 5xx: for good), gave-up. */
export interface MailMetrics {
  readonly messages: Counter<'kind' | 'result'>;
}

const cache = new WeakMap<Registry, MailMetrics>();

export function mailMetrics(registry: Registry = new Registry()): MailMetrics {
  const cached = cache.get(registry);
  if (cached) return cached;
  const metrics: MailMetrics = {
    messages: new Counter({
      name: 'bank_mail_messages_total',
      help: 'Messages by kind and result: sent, retried (temporary failure), failed (permanent, a 5xx), gave-up (out of attempts)',
      labelNames: ['kind', 'result'],
      registers: [registry],
    }),
  };
  cache.set(registry, metrics);
  return metrics;
}
