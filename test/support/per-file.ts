import { afterAll, vi } from 'vitest';
import { removeTempDirs } from './temp-dirs.js';
import { useWorkerHome } from './worker-home.js';

useWorkerHome();

// A setup file runs before each test file, also when the files of a worker share their modules
// (vitest `isolate: false`), so each file gets its own cleanup hook; a hook registered at a shared
// module's top level would belong to the first file that imported it only.
afterAll(removeTempDirs);

// Nothing a file fakes or spies on may reach the next file of its worker: a leaked fake
// setTimeout makes every later wait there hang until the test timeout.
afterAll(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});
