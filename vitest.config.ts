import { defineConfig } from 'vitest/config';
import SlowFoldersFirst from './test/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/support/per-file.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // End-to-end tests spawn the built CLI and local services; two cores, so keep forks modest.
    pool: 'forks',
    maxWorkers: 2,
    // The files of a worker share their imports (src/, fastify, zod...) instead of loading them
    // again for each of the 140 files; no test mocks a module or changes the process's globals.
    isolate: false,
    sequence: { sequencer: SlowFoldersFirst },
  },
});
