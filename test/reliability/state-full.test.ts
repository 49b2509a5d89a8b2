import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliResult, loadInProcess, readReport, runCli, startService, tempDir } from '../e2e/harness.js';

/**
 * A `--state` on a full disk (a 384 KB tmpfs): the ledger stops taking writes in the middle of a
 * load. The report must say what is true: what it counts created is what the target holds, none
 * of it "failed", and the next run with that ledger creates nobody twice. The stopped run is the
 * command line's (its exit code, its one line on stderr); the next runs in this process.
 */
const isRoot = process.getuid?.() === 0;

describe.skipIf(!isRoot)('a full --state (root only: it mounts a small tmpfs)', () => {
  it(
    'reports what the target holds, and the next run creates nobody twice',
    { timeout: 180_000 },
    async () => {
      const svc = await startService();
      try {
        const dir = tempDir();
        const state = join(dir, 'state');
        mkdirSync(state);
        const rows = Array.from(
          { length: 3000 },
          (_, i) => `Person Number${i},p${i}@example.com,(415) 555-${String(1000 + i).padStart(4, '0')}`,
        );
        const input = join(dir, 'people.csv');
        writeFileSync(input, `full_name,email,phone\n${rows.join('\n')}\n`);
        const env = { CONTACT_IMPORT_API_KEY: svc.key };
        const run = (stateDir: string, out: string): Promise<CliResult> =>
          runCli(
            [
              'run',
              'generic',
              input,
              '--target',
              svc.service.url,
              '--state',
              stateDir,
              '--out',
              join(dir, out),
            ],
            { cwd: dir, env },
          );

        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=384k', 'tmpfs', state]);
        let full: CliResult;
        try {
          full = await run(state, 'full');
          cpSync(state, join(dir, 'state-copy'), { recursive: true });
        } finally {
          execFileSync('umount', [state]);
        }
        expect(full.code, full.stdout + full.stderr).toBe(2);
        expect(full.stderr.trim().split('\n')).toHaveLength(1);
        expect(full.stderr).toMatch(/(state_error|io_error): .*(SQLITE_FULL|no space left)/);
        const stopped = readReport(join(dir, 'full'));
        expect(stopped.status).toBe('aborted');
        expect(stopped.totals.failed).toBe(0);
        expect(stopped.totals.created).toBe((await svc.client.local.contacts()).length);

        // The same ledger on a disk with room: everyone once.
        const again = await loadInProcess(svc, input, {
          stateDir: join(dir, 'state-copy'),
          outDir: join(dir, 'again'),
        });
        expect(again.report.exitCode, JSON.stringify(again.report.error)).toBe(0);
        expect((await svc.client.local.contacts()).length).toBe(3000);
        const { totals } = readReport(join(dir, 'again'));
        expect(totals.created + totals.unchanged).toBe(3000);
      } finally {
        await svc.close();
      }
    },
  );
});
