import { rmSync } from 'node:fs';
import { afterEach } from 'vitest';
import { startService, tempDir, type TestService } from '../e2e/harness.js';

/**
 * A local service and temp folders per test, closed and removed after each: `start()` and
 * `dir()` inside a test; `closeLater` for anything else the test opens (a proxy).
 */
export const perTest = () => {
  let closers: (() => Promise<void>)[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const close of closers.reverse()) await close();
    closers = [];
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return {
    start: async (options?: Parameters<typeof startService>[0]): Promise<TestService> => {
      const svc = await startService(options);
      closers.push(() => svc.close());
      return svc;
    },
    dir: (): string => {
      const dir = tempDir();
      dirs.push(dir);
      return dir;
    },
    closeLater: (close: () => Promise<void>) => closers.push(close),
  };
};
