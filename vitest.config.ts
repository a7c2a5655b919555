import { defineConfig, type TestProjectConfiguration } from 'vitest/config';

const UNIT_FILES = ['domain/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'projector/src/**/*.test.ts', 'services/runtime/bench/**/*.test.ts', 'projector/bench/**/*.test.ts', 'eslint.boundaries.test.ts'];
/** Unit files that vi.mock a module (a new one fails in the shared `unit` project: add it here). */
const UNIT_FILES_THAT_MOCK = ['services/api/src/features/audit/verifyEventLog.esdb.test.ts'];

/**
 * `npm test` (.ci/test) runs two lanes at once: TEST_LANE=main (every project but the serial ones) and
 * TEST_LANE=serial (the projects whose files run one at a time: they wait on browsers, servers and restarts, so they
 * run beside the main lane instead of after it). Without TEST_LANE, every project runs (npx vitest run).
 */
const lane = process.env.TEST_LANE;
if (lane !== undefined && lane !== 'main' && lane !== 'serial') throw new Error(`TEST_LANE must be main or serial, not "${lane}"`);
const maxWorkers = Number(process.env.TEST_MAX_WORKERS ?? 2);
if (!Number.isInteger(maxWorkers) || maxWorkers < 1) throw new Error(`TEST_MAX_WORKERS must be a whole number of 1 or more, not "${process.env.TEST_MAX_WORKERS}"`);

const mainProjects: TestProjectConfiguration[] = [
  {
    // The pure tier: the domain and the services' logic with no PostgreSQL, Redis or network (npm run test:unit).
    // The files of a worker share their modules (isolate: false): the tier's time was mostly each file importing
    // the same graph again (105 s → 64 s under load). A file that replaces a module (vi.mock) runs alone below.
    test: {
      name: 'unit',
      include: UNIT_FILES,
      exclude: ['**/node_modules/**', '**/*.int.test.ts', ...UNIT_FILES_THAT_MOCK],
      environment: 'node',
      env: { NODE_ENV: 'test' },
      testTimeout: 60_000,
      hookTimeout: 60_000,
      pool: 'forks',
      isolate: false,
    },
  },
  {
    // The unit files that vi.mock a module: isolated, so that no other file sees the stand-in (npm run test:unit).
    test: {
      name: 'unit-isolated',
      include: UNIT_FILES_THAT_MOCK,
      environment: 'node',
      env: { NODE_ENV: 'test' },
      testTimeout: 60_000,
      hookTimeout: 60_000,
      pool: 'forks',
    },
  },
  {
    // Against real PostgreSQL and Redis (each file its own database and key prefix): `*.int.test.ts`.
    test: {
      name: 'integration',
      include: ['domain/src/**/*.int.test.ts', 'services/*/src/**/*.int.test.ts', 'projector/src/**/*.int.test.ts', 'services/runtime/bench/**/*.int.test.ts'],
      environment: 'node',
      env: { NODE_ENV: 'test' },
      testTimeout: 60_000,
      hookTimeout: 60_000,
      pool: 'forks',
    },
  },
  './web/vite.config.ts',
];

const serialProjects: TestProjectConfiguration[] = [
  {
    // The bank as real processes on private PostgreSQL and Redis servers that the tests stop and start.
    test: {
      name: 'faults',
      include: ['services/runtime/faults/**/*.fault.test.ts'],
      environment: 'node',
      env: { NODE_ENV: 'test' },
      fileParallelism: false,
      testTimeout: 240_000,
      hookTimeout: 240_000,
      pool: 'forks',
    },
  },
  {
    // Browser journeys against the real server in Debian Chromium (web/e2e/README.md).
    test: {
      name: 'e2e',
      include: ['web/e2e/**/*.e2e.test.ts'],
      environment: 'node',
      globalSetup: ['web/e2e/harness/globalSetup.ts'],
      fileParallelism: false,
      testTimeout: 120_000,
      hookTimeout: 180_000,
      pool: 'forks',
    },
  },
];

export default defineConfig({
  test: {
    // Files at once in a group of projects (vitest's default is one less than the cores: 1 here, every file in turn).
    // The integration files mostly wait on PostgreSQL, Redis and child processes (docs/testing.md has the figures).
    // TEST_MAX_WORKERS lowers or raises it (each worker's file holds PostgreSQL connections: max_connections is 100).
    maxWorkers,
    projects: [...(lane === 'serial' ? [] : mainProjects), ...(lane === 'main' ? [] : serialProjects)],
  },
});
