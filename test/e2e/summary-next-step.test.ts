import { join, isAbsolute } from 'node:path';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SAMPLES, readReport, runCli, tempDir } from './harness.js';

const SAMPLE = join(SAMPLES, 'generic.csv');

describe('the summary ends with the next step', () => {
  it('exit 1 names the limit passed, where the rejects are and the command that re-runs them', async () => {
    const cwd = tempDir();
    const result = await runCli(['validate', 'generic', SAMPLE, '--out', 'out'], { cwd });
    expect(result.code).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    const rejected = join(cwd, 'out', 'rejected.csv');
    expect(lines.slice(-3)).toEqual([
      'Exit 1: 1 would be rejected, more than --max-rejects 0 allows.',
      `Rejected records: ${rejected} (issues.csv says why, row by row).`,
      expect.stringMatching(
        new RegExp(`^Next: fix them there, then check just those: .* validate generic ${rejected}$`),
      ),
    ]);
  });

  it('a dry run speaks in "would" and shows no load rate', async () => {
    const cwd = tempDir();
    const result = await runCli(['validate', 'generic', SAMPLE, '--out', 'out', '--max-rejects', '5'], {
      cwd,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/would be created 10/);
    expect(result.stdout).not.toMatch(/records\/s loaded/);
    expect(result.stdout).toMatch(
      /Exit 0: Dry run completed: 1 would be rejected, within --max-rejects 5; nothing was sent\./,
    );
  });

  it('--json adds exitReason and the absolute path of every file written', async () => {
    const cwd = tempDir();
    const result = await runCli(['validate', 'generic', SAMPLE, '--out', 'out', '--json'], { cwd });
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as { exitReason: string; files: Record<string, string> };
    expect(json.exitReason).toBe('1 would be rejected, more than --max-rejects 0 allows.');
    expect(Object.keys(json.files).sort()).toEqual([
      'issues.csv',
      'rejected.csv',
      'report.html',
      'report.json',
    ]);
    for (const path of Object.values(json.files)) {
      expect(isAbsolute(path)).toBe(true);
      expect(existsSync(path)).toBe(true);
    }
    expect(readReport(join(cwd, 'out')).exitCode).toBe(1);
  });
});
