import { defineConfig, type TestProjectConfiguration } from 'vitest/config';
import { FILES_THAT_REPLACE_MODULES } from './eslint.boundaries.js';

const UNIT_FILES = ['domain/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'projector/src/**/*.test.ts', 'services/runtime/bench/**/*.test.ts', 'projector/bench/**/*.test.ts', 'eslint.boundaries.test.ts'];

/**
 * `npm test` (.ci/test) runs three lanes at once: TEST_LANE=main (every project whose files run side by side),
 * TEST_LANE=e2e and TEST_LANE=faults (the projects whose files run one at a time: they wait on browsers, servers and
 * restarts, so they run beside the main lane and each other instead of after it). TEST_LANE=serial is e2e and faults in
 * one lane, one file after another. Without TEST_LANE, every project runs (npx vitest run).
 */
const LANES = ['main', 'serial', 'e2e', 'faults'] as const;
type Lane = (typeof LANES)[number];
const lane = process.env.TEST_LANE as Lane | undefined;
if (lane !== undefined && !LANES.includes(lane)) throw new Error(`TEST_LANE must be one of ${LANES.join(', ')}, not "${String(lane)}"`);
const maxWorkers = Number(process.env.TEST_MAX_WORKERS ?? 2);
if (!Number.isInteger(maxWorkers) || maxWorkers < 1) throw new Error(`TEST_MAX_WORKERS must be a whole number of 1 or more, not "${process.env.TEST_MAX_WORKERS}"`);

/** An integration test's and hook's time limit. */
const INTEGRATION_TIMEOUT_MS = 180_000;

const mainProjects: TestProjectConfiguration[] = [
  {
    // The pure tier: the domain and the services' logic with no PostgreSQL, Redis or network (npm run test:unit).
    // The files of a worker share their modules (isolate: false): the tier's time was mostly each file importing
    // the same graph again (105 s → 64 s under load). A file that replaces a module (vi.mock) runs alone below.
    test: {
      name: 'unit',
      include: UNIT_FILES,
      exclude: ['**/node_modules/**', '**/*.int.test.ts', ...FILES_THAT_REPLACE_MODULES],
      environment: 'node',
      env: { NODE_ENV: 'test' },
      testTimeout: 60_000,
      hookTimeout: 60_000,
      pool: 'forks',
      isolate: false,
    },
  },
  {
    // The unit files that vi.mock a module: isolated, so that no other file sees the stand-in (npm run test:unit). Every
    // other project shares modules between the files of a worker, and the linter refuses vi.mock there
    // (FILES_THAT_REPLACE_MODULES in eslint.boundaries.js).
    test: {
      name: 'unit-isolated',
      include: FILES_THAT_REPLACE_MODULES,
      environment: 'node',
      env: { NODE_ENV: 'test' },
      testTimeout: 60_000,
      hookTimeout: 60_000,
      pool: 'forks',
    },
  },
  {
    // Against real PostgreSQL and Redis (each file its own database and key prefix): `*.int.test.ts`. The files of a
    // worker share their modules, as the unit tier's do: each file importing the bank's graph again (Express, pg,
    // BullMQ, every schema) took 215 s of the project's 547 s on a quiet 2-core host, 20 s of 406 s shared (2
    // December). What a file starts it stops (its app, pools, servers), and vi.mock is refused here by the linter.
    test: {
      name: 'integration',
      isolate: false,
      include: ['domain/src/**/*.int.test.ts', 'services/*/src/**/*.int.test.ts', 'projector/src/**/*.int.test.ts', 'services/runtime/bench/**/*.int.test.ts'],
      environment: 'node',
      env: { NODE_ENV: 'test' },
      // A guard against a hang, not a speed check (speed lives in the benches): on a 2-core host running Node at half
      // its usual speed, beside the e2e and faults lanes, a test that takes 11 s alone took over 60 s (4 December).
      testTimeout: INTEGRATION_TIMEOUT_MS,
      hookTimeout: INTEGRATION_TIMEOUT_MS,
      pool: 'forks',
    },
  },
  './web/vite.config.ts',
];

const faultsProjects: TestProjectConfiguration[] = [
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
];

const e2eProjects: TestProjectConfiguration[] = [
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

/** The projects a lane runs (all of them without a lane). */
function projectsOf(which: Lane | undefined): TestProjectConfiguration[] {
  switch (which) {
    case 'main':
      return mainProjects;
    case 'e2e':
      return e2eProjects;
    case 'faults':
      return faultsProjects;
    case 'serial':
      return [...faultsProjects, ...e2eProjects];
    case undefined:
      return [...mainProjects, ...faultsProjects, ...e2eProjects];
  }
}

export default defineConfig({
  test: {
    // Files at once in a group of projects (vitest's default is one less than the cores: 1 here, every file in turn).
    // The integration files mostly wait on PostgreSQL, Redis and child processes (docs/testing.md has the figures).
    // TEST_MAX_WORKERS lowers or raises it (each worker's file holds PostgreSQL connections: max_connections is 100).
    maxWorkers,
    projects: projectsOf(lane),
  },
});
