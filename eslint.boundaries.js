/**
 * The boundaries between the packages and folders, as docs/architecture.md's table states them, kept by the linter
 * (eslint-plugin-import-x: `no-restricted-paths` on resolved files, `no-extraneous-dependencies` on package.json).
 * eslint.boundaries.test.ts lints imports that break each rule and checks that the linter refuses them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = import.meta.dirname;
const workspaces = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces;

/** Test kits, harnesses, benches and fault tools: where they live. */
export const TOOLING = ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', '**/test/**', '**/bench/**', '**/faults/**', '**/e2e/**', 'services/testkit/**'];

const SERVER = ['services', 'projector'];

/**
 * The only test files that may replace a module (vi.mock, vi.doMock): vitest.config.ts runs them in an isolated project
 * of their own. Every other test project shares modules between the files of a worker, so a stand-in there would
 * leak into the files that run after it; `mockingBlocks` refuses it.
 */
export const FILES_THAT_REPLACE_MODULES = ['services/api/src/features/audit/verifyEventLog.esdb.test.ts'];

/** Every file, tests included. */
const everywhere = [
  { target: 'domain', from: [...SERVER, 'web'], message: 'The domain imports nothing of ours: it is pure.' },
  {
    target: 'services/eventstore',
    from: ['domain', 'projector', 'services/commands', 'services/transfers', 'services/books', 'services/integrity', 'services/audit', 'services/mail', 'services/worker', 'services/api', 'services/runtime'],
    message: 'The event store knows no domain.',
  },
  { target: ['web/src', 'web/build'], from: SERVER, message: 'The web app imports no server code, only the domain’s pure rules (@bank/domain).' },
];

/** Product code only (not tests, harnesses, benches, fault tools). */
const productOnly = [
  // The web app one way: app shell → features → shared components and lib (a feature's tests may mount the app's router).
  { target: ['web/src/components', 'web/src/lib'], from: ['web/src/features', 'web/src/app'], message: 'Shared web code (components, lib) imports no feature and not the app shell.' },
  { target: 'web/src/features', from: 'web/src/app', message: 'A web feature does not import the app shell.' },
  { target: 'services/api', from: 'services/worker', message: 'The API never imports the worker; the composition root (services/runtime) runs both.' },
  {
    target: '.',
    from: ['services/testkit/**', '**/testing/**', '**/test/**', '**/bench/**', '**/faults/**', '**/e2e/**'],
    message: 'Product code never imports test kits, harnesses, benches or fault tools.',
  },
];

const restrictedPaths = (zones) => ['error', { basePath: root, zones }];

export function boundaryBlocks(importX, createNodeResolver) {
  const plugin = { 'import-x': importX };
  const settings = {
    'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'], conditionNames: ['import', 'types', 'default'] })],
  };
  const code = ['**/*.ts', '**/*.tsx'];
  return [
    { files: code, plugins: plugin, settings, rules: { 'import-x/no-restricted-paths': restrictedPaths(everywhere) } },
    { files: code, ignores: TOOLING, plugins: plugin, settings, rules: { 'import-x/no-restricted-paths': restrictedPaths([...everywhere, ...productOnly]) } },
    // Every package declares what it imports (its package.json, or the root's shared tooling).
    ...workspaces.map((workspace) => ({
      files: code.map((glob) => `${workspace}/${glob}`),
      plugins: plugin,
      settings,
      rules: {
        'import-x/no-extraneous-dependencies': ['error', { packageDir: [root, path.join(root, workspace)], devDependencies: true, peerDependencies: true, optionalDependencies: true }],
      },
    })),
  ];
}

/** Refuses vi.mock and vi.doMock outside FILES_THAT_REPLACE_MODULES (see there). */
export function mockingBlocks() {
  const message =
    'Test files share their modules within a worker: replace an export through a seam (an object whose method a test spies on), or add this file to FILES_THAT_REPLACE_MODULES (eslint.boundaries.js) to run it isolated.';
  return [
    {
      files: ['**/*.test.ts', '**/*.test.tsx'],
      ignores: FILES_THAT_REPLACE_MODULES,
      rules: {
        'no-restricted-syntax': [
          'error',
          { selector: "CallExpression[callee.object.name='vi'][callee.property.name=/^(mock|doMock)$/]", message },
        ],
      },
    },
  ];
}
