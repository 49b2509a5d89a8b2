import { defineConfig } from 'vitest/config';
import SlowFoldersFirst from './test/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Wall-clock and memory bounds: `npm run test:perf` (vitest.perf.config.ts), never here.
    exclude: ['test/perf/**', '**/node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/support/per-file.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores, three forks: many end-to-end files spend seconds waiting (a 10 s probe timeout,
    // Retry-After, a service's latency holding a run open), and a third fork uses that time.
    pool: 'forks',
    maxWorkers: 3,
    // The files of a worker share their imports (src/, fastify, zod...) instead of loading them
    // again for each of the 140 files; no test mocks a module or changes the process's globals.
    isolate: false,
    sequence: { sequencer: SlowFoldersFirst },
  },
});
