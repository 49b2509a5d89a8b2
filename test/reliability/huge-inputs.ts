import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalClient } from '../support/local-client.js';
import { readIssues, readReport, runCli, startService, tempDir, type TestService } from '../e2e/harness.js';
import { runImport } from '../../src/run/run.js';

/**
 * The hostile inputs too big to keep in the repository: written at test time, run (a hang is a
 * timeout). `npm test` runs them for what the run does with them (test/reliability/hostile-huge.test.ts),
 * the 50 MB line's stop through the built CLI, the others in its own process; `npm run test:perf`
 * runs them all through the CLI with the heap capped, so "memory bounded" is enforced by the
 * runtime (a reader that held a 50 MB line whole, several times over, dies):
 * test/perf/hostile-huge-memory.test.ts.
 */
// Each test's timeout is a bound for a hung run only: 100,000 columns take over a minute on a
// busy two-core machine.
export const describeHugeInputs = (title: string, nodeOptions?: string): void => {
  let svc: TestService;
  let dir: string;
  beforeAll(async () => {
    svc = await startService();
    dir = tempDir();
  });
  afterAll(async () => {
    await svc.close();
  });

  /**
   * Writes `parts` one after another, without ever building the file in memory. Parts of a
   * megabyte or more: a write per character (a million brackets) costs the test seconds of CPU.
   */
  const writeFile = async (name: string, parts: Iterable<string | Buffer>): Promise<string> => {
    const path = join(dir, name);
    const out = createWriteStream(path);
    for (const part of parts)
      if (!out.write(part)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    out.end();
    await finished(out);
    return path;
  };

  function* repeat<T>(part: T, times: number): Generator<T> {
    for (let i = 0; i < times; i++) yield part;
  }

  /** A fresh user of the service, and what it holds once `run` is done. */
  const asUser = async <T>(run: (apiKey: string) => Promise<T>) => {
    const apiKey = svc.service.addUser();
    const result = await run(apiKey);
    const client = createLocalClient({ baseUrl: svc.service.url, apiKey });
    const stored = await client.local.contacts();
    await client.close();
    return { result, stored };
  };

  /** `run generic <file> --target <svc> --state ... --out <out>` through the built CLI. */
  const runSpawned = async (file: string, out: string) => {
    const { result, stored } = await asUser((apiKey) =>
      runCli(
        [
          'run',
          'generic',
          file,
          '--target',
          svc.service.url,
          '--state',
          join(dir, `state-${out}`),
          '--out',
          join(dir, out),
        ],
        {
          cwd: dir,
          env: { CONTACT_IMPORT_API_KEY: apiKey, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
        },
      ),
    );
    // Never a stack trace, never a kill by the timeout (or the heap cap, when there is one).
    expect(result.signal).toBeNull();
    expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+|heap out of memory|FATAL/);
    return { result, code: result.code, stored, out: join(dir, out) };
  };

  /**
   * The same run, for an input whose run's result (its exit code, report, what the service
   * holds) is what a test checks: under a heap cap the CLI's, whose heap the cap bounds; else in
   * this process (a spawned CLI starts node and loads its bundle again before it reads a row). The
   * command line's own part, one line on stderr, is checked with the 50 MB line.
   */
  const run = async (file: string, out: string) => {
    if (nodeOptions) return runSpawned(file, out);
    const { result, stored } = await asUser((apiKey) =>
      runImport({
        pipeline: 'generic',
        inputs: [file],
        target: { url: svc.service.url, apiKey },
        stateDir: join(dir, `state-${out}`),
        outDir: join(dir, out),
      }),
    );
    return { code: result.report.exitCode, stored, out: join(dir, out) };
  };

  describe(title, () => {
    it('100,000 columns: loads the row, no column is a problem', { timeout: 180_000 }, async () => {
      const header = ['full_name', 'email', ...Array.from({ length: 99_998 }, (_, i) => `extra_${i}`)].join(
        ',',
      );
      const row = [
        'Ann Lee',
        'ann@example.com',
        ...Array.from({ length: 99_998 }, (_, i) => String(i % 10)),
      ].join(',');
      const file = await writeFile('wide.csv', [header, '\n', row, '\n']);
      const { code, stored, out } = await run(file, 'wide');
      expect([0, 1]).toContain(code);
      expect(readReport(out).totals).toMatchObject({ read: 1, created: 1 });
      expect(stored.map((c) => c.contact_emails[0]?.email)).toEqual(['ann@example.com']);
    });

    it(
      'a 50 MB line without a newline: a clear stop naming file and row, nothing sent',
      { timeout: 180_000 },
      async () => {
        const file = await writeFile('long-line.csv', [
          'full_name,email,description\nAnn Lee,ann@example.com,ok\nBob Ray,bob@example.com,',
          // One megabyte of bytes, written 50 times: no string encoded again for each write.
          ...repeat(Buffer.alloc(1024 * 1024, 'x'), 50),
        ]);
        const { result, stored, out } = await runSpawned(file, 'long-line');
        // Reading stops at the record past the 16 MB bound (src/readers/limits.ts), before any request.
        expect(result.code).toBe(2);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(result.stderr).toMatch(/input_unreadable: Row 2 of .*long-line\.csv is longer than/);
        expect(readReport(out)).toMatchObject({ status: 'aborted', exitCode: 2 });
        expect(stored).toEqual([]);
      },
    );

    it(
      'a million-deep JSON array: that element is rejected naming its row, the rest loads, no blown stack',
      { timeout: 180_000 },
      async () => {
        const depth = 1_000_000;
        const file = await writeFile('deep.json', [
          '[{"full_name":"Ann Lee","contact_emails":[{"email":"ann@example.com"}]},',
          '['.repeat(depth),
          ']'.repeat(depth),
          ']',
        ]);
        const { code, stored, out } = await run(file, 'deep');
        expect(code).toBe(1);
        expect(readReport(out).totals).toMatchObject({ read: 2, created: 1, rejected: 1 });
        expect(readIssues(out)).toMatchObject([
          { file, row: '2', severity: 'error', code: 'row_unparseable' },
        ]);
        expect(stored).toHaveLength(1);
      },
    );
  });
};
