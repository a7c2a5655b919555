import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createApiMetrics } from '@bank/api';
import { createCommandMetrics } from '@bank/commands';
import { createProjectorMetrics } from '@bank/projector';
import { workerMetrics } from '@bank/worker';

const dashboardFile = path.resolve(import.meta.dirname, '../../../docs/grafana/bank-dashboard.json');

describe('the Grafana dashboard (docs/grafana)', () => {
  it('queries only metrics the bank exports', async () => {
    const registries = [createApiMetrics().registry, createProjectorMetrics(new Registry()).registry, workerMetrics(new Registry()).registry, createCommandMetrics(new Registry()).registry];
    const exported = new Set((await Promise.all(registries.map((r) => r.getMetricsAsJSON()))).flat().map((metric) => metric.name));
    const dashboard = JSON.parse(readFileSync(dashboardFile, 'utf8')) as { panels: { title: string; targets: { expr: string }[] }[] };
    const queried = new Set(dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => target.expr.match(/bank_[a-z_]+/g) ?? [])).map((name) => name.replace(/_(bucket|sum|count)$/, '')));
    expect(queried.size).toBeGreaterThan(10);
    expect([...queried].filter((name) => !exported.has(name))).toEqual([]);
  });
});
