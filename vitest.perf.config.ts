import { defineConfig } from 'vitest/config';

/**
 * `npm run test:perf`: the wall-clock and memory bounds, which hold on a quiet machine only.
 * `npm test` never runs these (vitest.config.ts excludes test/perf/); one file at a time, so the
 * measurements do not compete with each other.
 */
export default defineConfig({
  test: {
    include: ['test/perf/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/support/per-file.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
