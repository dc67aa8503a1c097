import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'out/**', 'meshwork-*/**', 'src/workload/chakra/gen/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Meshwork Studio runs in the browser and its worker.
    files: ['web/**'],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },
  {
    // f(...xs) overflows the stack for large xs (issue 16 item 3); use appendAll/maxOf/minOf (src/util/arrays.ts).
    files: ['src/**'],
    rules: {
      'no-restricted-syntax': ['error', { selector: 'CallExpression > SpreadElement, NewExpression > SpreadElement', message: 'spread arguments overflow the stack on large arrays: use appendAll, maxOf or minOf (src/util/arrays.ts)' }],
    },
  },
  {
    // The platform-neutral core must not reach for Node-only modules (ARCHITECTURE.md).
    files: ['src/topology/**', 'src/routing/**', 'src/collectives/**', 'src/sim/**', 'src/analysis/**', 'src/util/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', 'fs', 'path', 'os', 'child_process', 'worker_threads'] }],
      'no-restricted-globals': ['error', 'process', 'Buffer', '__dirname', 'require'],
    },
  },
);
