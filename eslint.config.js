import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';
import { boundaryBlocks, mockingBlocks } from './eslint.boundaries.js';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'artifacts/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The domain is pure: no I/O, no infrastructure.
    files: ['domain/src/**/*.ts'],
    ignores: ['domain/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(node:)?(fs|fs/promises|net|http|https|http2|child_process|dgram|dns|tls|worker_threads|cluster|os|process)$',
              message: 'The domain does no I/O.',
            },
            { regex: '^(pg|ioredis|redis|express|bullmq|@eventstore/.*|@bank/(?!domain).*)$', message: 'The domain imports no infrastructure.' },
          ],
        },
      ],
    },
  },
  {
    // The event store knows no domain.
    files: ['services/eventstore/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^@bank/(domain|projector|api|worker|books)$', message: 'The event store knows no domain.' }] }] },
  },
  ...boundaryBlocks(importX, createNodeResolver),
  ...mockingBlocks(),
);
