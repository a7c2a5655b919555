import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['domain/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'projector/src/**/*.test.ts'],
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
