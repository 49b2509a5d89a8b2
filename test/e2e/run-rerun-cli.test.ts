import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readReport, runCli, SAMPLES, tempDir } from './harness.js';
import { runAsCli } from './cli-in-process.js';

describe('contact-import run, the same export again (local default target)', () => {
  it('reads nothing the second time and says so; --reread and a deleted database take the full path', async () => {
    const cwd = tempDir();
    const sample = join(SAMPLES, 'generic.csv');
    const run = (out: string) =>
      runCli(['run', 'generic', sample, '--out', out, '--max-rejects', '1'], { cwd });
    // The same command in this process (no --target: the local service in cwd's .contact-import),
    // for the runs whose printed summary is not what is checked.
    const runIn = async (out: string, more: { reread?: boolean } = {}) => {
      const { report } = await runAsCli({
        cwd,
        pipeline: 'generic',
        inputs: [sample],
        out,
        maxRejects: '1',
        ...more,
      });
      expect(report.exitCode, JSON.stringify(report.error)).toBe(0);
    };

    await runIn('first');
    const firstReport = readReport(join(cwd, 'first'));
    expect(firstReport.totals).toMatchObject({ read: 12, created: 10 });

    const second = await run('second');
    expect(second.code, second.stderr).toBe(0);
    const report = readReport(join(cwd, 'second'));
    expect(report.inputsUnchangedSince).toBe(firstReport.runId);
    expect(report.totals).toMatchObject({ read: 12, created: 0, updated: 0, unchanged: 10, failed: 0 });
    expect(report.requests.sent).toBe(1);
    expect(second.stdout).toContain(`inputs unchanged since run ${firstReport.runId}: nothing read`);
    expect(readFileSync(join(cwd, 'second', 'issues.csv'), 'utf8')).toBe(
      readFileSync(join(cwd, 'first', 'issues.csv'), 'utf8'),
    );

    await runIn('reread', { reread: true });
    expect(readReport(join(cwd, 'reread'))).toMatchObject({ totals: { read: 12, unchanged: 10 } });
    // What makes the summary say "inputs unchanged since": absent, a run that read its inputs.
    expect(readReport(join(cwd, 'reread')).inputsUnchangedSince).toBeUndefined();

    // The local service's database is gone: the target is empty while the ledger says it held 10.
    for (const suffix of ['', '-wal', '-shm'])
      rmSync(join(cwd, '.contact-import', `local-service.sqlite${suffix}`), { force: true });
    await runIn('after-reset');
    const resetReport = readReport(join(cwd, 'after-reset'));
    expect(resetReport.inputsUnchangedSince).toBeUndefined();
    expect(resetReport.totals.read).toBe(12);
    expect(resetReport.totals).toMatchObject({ created: 10, unchanged: 0, failed: 0 });
  });
});
