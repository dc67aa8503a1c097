import { defineConfig } from 'vitest/config';

/**
 * `npm run test:full`: the full `meshwork reproduce all` run with its verdicts pinned
 * (test/full/*.full.ts; not matched by the default config's `*.test.ts`, so `npm test` skips it).
 */
export default defineConfig({
  test: {
    include: ['test/full/**/*.full.ts'],
    testTimeout: 3_600_000,
    hookTimeout: 3_600_000,
    pool: 'forks',
  },
});
