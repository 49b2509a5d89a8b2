import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport as runImportInProcess } from '../../src/run/run.js';
import { nameEmailCsv } from './generic-csv.js';
import { ROOT, SAMPLES, readReport, runCli, startService, tempDir, type TestService } from './harness.js';

describe('progress when stderr is not a terminal', () => {
  let svc: TestService;
  beforeAll(async () => {
    // Every answer 250 ms late: a load of 8 one-contact requests takes about 2 s.
    svc = await startService({ latencyMs: 250 });
  });
  afterAll(() => svc.close());

  const slowRun = (cwd: string, extra: string[]) =>
    runCli(
      [
        'run',
        'generic',
        'people.csv',
        '--target',
        svc.service.url,
        '--out',
        'out',
        '--chunk-size',
        '1',
        '--concurrency',
        '1',
        '--match',
        'none',
        ...extra,
      ],
      { cwd, env: { CONTACT_IMPORT_API_KEY: svc.key } },
    );

  it('prints a plain line every --progress-interval: phase, share, counts, ETA in h:mm:ss', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'people.csv'), nameEmailCsv(8));
    const result = await slowRun(cwd, ['--progress-interval', '0.4']);
    expect(result.code).toBe(0);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      expect(line).toMatch(
        /^progress: (read 100% \([\d.]+ B of [\d.]+ B\), 8 records, ETA 0:00:00|load \d+% \(\d of 8 records\)(, ETA \d+:\d\d:\d\d)?)$/,
      );
    }
    expect(lines.some((l) => /^progress: load \d+% \(\d of 8 records\), ETA 0:00:0\d$/.test(l))).toBe(true);
    expect(result.stderr).not.toMatch(/\r/);
    expect(result.stderr).not.toContain('\u001b');
    expect(result.stdout).toMatch(/^Run \S+ completed/);
  });

  it('prints nothing with --json, nor with --progress-interval 0; a typo in it is exit 2', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, 'people.csv'), nameEmailCsv(4));
    const json = await slowRun(cwd, ['--progress-interval', '0.2', '--json']);
    expect(json.code).toBe(0);
    expect(json.stderr).toBe('');
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'completed' });
    const other = tempDir();
    writeFileSync(join(other, 'people.csv'), nameEmailCsv(4, 100));
    const off = await slowRun(other, ['--progress-interval', '0']);
    expect(off.code).toBe(0);
    expect(off.stderr).toBe('');
    const bad = await runCli(['validate', 'generic', 'people.csv', '--progress-interval', 'often'], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'contact-import: config_invalid: --progress-interval must be a number of seconds from 0 to 3600, got "often"\n',
    );
  });
});

describe('report.json says why the run ended', () => {
  it('exitReason is in report.json on disk, the same sentence as the summary', async () => {
    const cwd = tempDir();
    const sample = join(SAMPLES, 'address-book.csv');
    const failed = await runCli(['validate', 'address-book-csv', sample, '--out', 'out'], { cwd });
    expect(failed.code).toBe(1);
    const reason = readReport(join(cwd, 'out')).exitReason;
    expect(reason).toBe('1 would be rejected, more than --max-rejects 0 allows.');
    expect(failed.stdout).toContain(`\nExit 1: ${reason}\n`);
    // A dry run with no target names none.
    expect(failed.stdout).toMatch(/^Dry run \S+ completed in [\d.]+s \(pipeline address-book-csv\)\n/);

    // The reason a run within its threshold gives, from the library itself: what it writes is
    // what the summary above printed.
    const passed = await runImportInProcess({
      pipeline: 'address-book-csv',
      inputs: [sample],
      dryRun: true,
      stateDir: join(cwd, '.contact-import'),
      outDir: join(cwd, 'ok'),
      maxRejects: '10%',
    });
    expect(passed.report.exitCode).toBe(0);
    expect(readReport(join(cwd, 'ok')).exitReason).toBe(
      'Dry run completed: 1 would be rejected, within --max-rejects 10%; nothing was sent.',
    );
  });
});

describe('the library refuses unknown option keys', () => {
  it('runImport({ out, state }) names outDir and writes nothing', async () => {
    const { runImport } = (await import(pathToFileURL(join(ROOT, 'dist/index.js')).href)) as {
      runImport: (options: object) => Promise<unknown>;
    };
    const cwd = tempDir();
    const input = join(SAMPLES, 'generic.csv');
    await expect(
      runImport({ pipeline: 'generic', inputs: [input], out: join(cwd, 'o') }),
    ).rejects.toMatchObject({
      code: 'config_invalid',
      message: 'unknown option out; did you mean outDir?',
    });
    await expect(
      runImport({ pipeline: 'generic', inputs: [input], dryRun: true, state: join(cwd, 's') }),
    ).rejects.toThrow('unknown option state; did you mean stateDir?');
    expect(readdirSync(cwd)).toEqual([]);
    expect(existsSync(join(cwd, 'o'))).toBe(false);
  });
});
