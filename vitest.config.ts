import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Plot warnings fail the suite (issue 16 item 6), in-process and in the CLI runs (src/report/plot.ts).
    env: { MESHWORK_STRICT_PLOTS: '1' },
  },
});
