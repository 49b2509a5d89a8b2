import { join, isAbsolute } from 'node:path';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../src/report/summary.js';
import { runImport } from '../../src/run/run.js';
import { SAMPLES, readIssues, readRejected, readReport, runCli, startService, tempDir } from './harness.js';

const SAMPLE = join(SAMPLES, 'generic.csv');

describe('the summary ends with the next step', () => {
  it('exit 1 names the limit passed, where the rejects are and the command that re-runs them', async () => {
    const cwd = tempDir();
    const result = await runCli(['validate', 'generic', SAMPLE, '--out', 'out'], { cwd });
    expect(result.code).toBe(1);
    // The sample's validate on the command line (validate-samples.test.ts runs every sample in
    // process): the summary, and the report, issues and rejects it wrote.
    expect(result.stdout).toMatch(/Dry run .* completed/);
    // A dry run speaks in "would" and shows no load rate.
    expect(result.stdout).toMatch(/would be created 10/);
    expect(result.stdout).not.toMatch(/records\/s loaded/);
    const report = readReport(join(cwd, 'out'));
    expect(report).toMatchObject({ dryRun: true, status: 'completed', pipeline: 'generic', exitCode: 1 });
    expect(report.totals).toMatchObject({ read: 12, rejected: 1, duplicates: 1 });
    expect(readIssues(join(cwd, 'out')).filter((i) => i.severity === 'error')).toHaveLength(1);
    expect(readRejected(join(cwd, 'out', 'rejected.csv'))).toBeDefined();
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

  it('a dry run within --max-rejects says so and that nothing was sent', async () => {
    // The summary of `validate generic <sample> --out out --max-rejects 5`, made in this process as
    // the command line makes it (its printing is checked on the command line above).
    const cwd = tempDir();
    const result = await runImport({
      pipeline: 'generic',
      inputs: [SAMPLE],
      dryRun: true,
      stateDir: join(cwd, '.contact-import'),
      outDir: join(cwd, 'out'),
      maxRejects: 5,
    });
    expect(result.report.exitCode).toBe(0);
    const summary = formatSummary(result.report, {
      topIssues: result.topIssues,
      files: [],
      next: { maxRejects: '5', command: 'contact-import validate', pipeline: 'generic', rejectedPaths: [] },
    });
    expect(summary).toMatch(/would be created 10/);
    expect(summary).not.toMatch(/records\/s loaded/);
    expect(summary).toMatch(
      /Exit 0: Dry run completed: 1 would be rejected, within --max-rejects 5; nothing was sent\./,
    );
  });

  it('--json prints report.json on stdout, with exitReason and the absolute path of every file written', async () => {
    const cwd = tempDir();
    const result = await runCli(['validate', 'generic', SAMPLE, '--out', 'out', '--json'], { cwd });
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as { exitReason: string; files: Record<string, string> };
    const { files: _files, ...printed } = json;
    expect(printed).toEqual(readReport(join(cwd, 'out')));
    expect(json.exitReason).toBe('1 would be rejected, more than --max-rejects 0 allows.');
    expect(Object.keys(json.files).sort()).toEqual([
      'issues.csv',
      'outcomes.csv',
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

describe('the printed Next: command', () => {
  it(
    'keeps target, state and settings, shell-quoted: run through sh from a folder with a space, it loads there and runs nothing',
    { timeout: 120_000 },
    async () => {
      const svc = await startService();
      try {
        const cwd = join(tempDir(), 'my imports');
        mkdirSync(cwd);
        const env = { CONTACT_IMPORT_API_KEY: svc.key };
        const state = 'state $(touch pwned) `touch pwned2`';
        const first = await runCli(
          [
            'run',
            'generic',
            SAMPLE,
            '--target',
            svc.service.url,
            '--state',
            state,
            '--out',
            "it's out",
            '--region',
            'US',
          ],
          { cwd, env },
        );
        expect(first.code, first.stderr).toBe(1);
        const next = /^Next: fix them there, then load just those: (.*)$/m.exec(first.stdout)?.[1];
        expect(next, first.stdout).toBeDefined();
        expect(next).toContain(`--target ${svc.service.url}`);
        expect(next).toContain(`--state 'state $(touch pwned) \`touch pwned2\`'`);
        expect(next).toContain('--region US');
        expect(next).not.toContain(svc.key);

        // Fixed: the record that had no identity gets an e-mail.
        const rejectedPath = join(cwd, "it's out", 'rejected.csv');
        const rows = parse(readFileSync(rejectedPath), { columns: true }) as Record<string, string>[];
        rows[0]!.email = 'front.desk@acme.example';
        writeFileSync(rejectedPath, stringify(rows, { header: true }));

        const replay = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
          const child = execFile(
            'sh',
            ['-c', next!],
            { cwd, env: { ...process.env, ...env } },
            (error, _o, stderr) => resolve({ code: error ? (error.code as number) : 0, stderr }),
          );
          child.stdin?.end();
        });
        expect(replay.code, replay.stderr).toBe(0);
        expect(readdirSync(cwd).filter((name) => name.startsWith('pwned'))).toEqual([]);
        expect(readdirSync(cwd)).toContain('state $(touch pwned) `touch pwned2`');
        const stored = await svc.client.local.contacts();
        expect(stored.some((c) => c.contact_emails?.some((e) => e.email === 'front.desk@acme.example'))).toBe(
          true,
        );
      } finally {
        await svc.close();
      }
    },
  );
});
