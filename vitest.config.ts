import { defineConfig } from 'vitest/config';

const UNIT_FILES = ['domain/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'projector/src/**/*.test.ts', 'eslint.boundaries.test.ts'];
/** Unit files that vi.mock a module (a new one fails in the shared `unit` project: add it here). */
const UNIT_FILES_THAT_MOCK = ['services/api/src/features/audit/verifyEventLog.esdb.test.ts'];

export default defineConfig({
  test: {
    projects: [
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
    ],
  },
});
