import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startService, tempDir, type TestService } from '../e2e/harness.js';
import type { LocalServiceOptions } from '../../src/server/index.js';

/** Where the files are kept as the kill left them, inside the kill's folder. */
const KEPT = 'as-killed';
const DATABASE = 'service.sqlite';

/**
 * A kill -9 made once for the tests of a file that start from the same killed run (one SIGKILLed
 * process instead of one per test), each test then getting the service and the state as the kill
 * left them: `kill(svc, dir)` runs against a service whose database is a file in `dir`; the
 * database and the folders `kept` names (relative to `dir`) are kept; `again(start)` copies them
 * back, removes the folders `dropped` names (a previous test's outputs) and reopens the service on
 * the same port with the same key (a ledger's scope is the target's URL and key), with `start`
 * (the test's own, which closes it). The kill's folder goes with the file's temp folders.
 */
export const keptKill = <T>(
  kill: (svc: TestService, dir: string) => Promise<T>,
  files: { kept: string[]; dropped: string[] },
  options: LocalServiceOptions = {},
) => {
  let killed: Promise<{ dir: string; port: number; key: string; made: T }> | undefined;
  const once = () =>
    (killed ??= (async () => {
      const dir = tempDir();
      const svc = await startService({ ...options, db: join(dir, DATABASE) });
      let made: T;
      try {
        made = await kill(svc, dir);
      } finally {
        await svc.close();
      }
      mkdirSync(join(dir, KEPT));
      const database = readdirSync(dir).filter((name) => name.startsWith(DATABASE));
      for (const name of [...files.kept, ...database])
        cpSync(join(dir, name), join(dir, KEPT, name), { recursive: true });
      return { dir, port: Number(new URL(svc.service.url).port), key: svc.key, made };
    })());
  return {
    again: async (
      start: (options: LocalServiceOptions) => Promise<TestService>,
    ): Promise<{ dir: string; svc: TestService; made: T }> => {
      const { dir, port, key, made } = await once();
      const stale = readdirSync(dir).filter(
        (name) => name.startsWith(DATABASE) || files.kept.includes(name) || files.dropped.includes(name),
      );
      for (const name of stale) rmSync(join(dir, name), { recursive: true, force: true });
      for (const name of readdirSync(join(dir, KEPT)))
        cpSync(join(dir, KEPT, name), join(dir, name), { recursive: true });
      const svc = await start({ ...options, db: join(dir, DATABASE), apiKeys: [key], port });
      return { dir, svc, made };
    },
  };
};
