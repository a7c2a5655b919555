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
    ],
  },
});
