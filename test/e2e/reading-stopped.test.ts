import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, readReport, startService, tempDir, type TestService } from './harness.js';

const ROWS = 3_000;
const CHUNK = 50;

let svc: TestService | undefined;
afterAll(async () => {
  await svc?.close();
});

describe('Ctrl-C while reading', () => {
  it('says where reading stopped, counts only what was read, and lists each record read', async () => {
    svc = await startService();
    const cwd = tempDir();
    const args = ['run', 'generic', '-', '--target', svc.service.url, '--state', 'state', '--out', 'out'];
    args.push('--chunk-size', String(CHUNK), '--concurrency', '1', '--progress-interval', '1');
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { ...process.env, CONTACT_IMPORT_API_KEY: svc.key },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Rows arrive and then stdin stays open and idle: the run is still reading when it is stopped.
    child.stdin.write('full_name,email\n');
    for (let i = 1; i <= ROWS; i++) child.stdin.write(`Person ${i},person${i}@example.com\n`);
    // The run reports progress while it reads: it is reading once a line says records were read.
    while (!/progress: .*[1-9]/.test(stderr)) await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGINT');
    expect(await exited).toBe(130);

    const report = readReport(join(cwd, 'out'));
    expect(report.status).toBe('interrupted');
    // Stopped while more was coming: the report counts the rows read, and says the rest was not.
    const read = report.totals.read;
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThanOrEqual(ROWS);
    expect(report.readingStopped).toEqual({ file: '<stdin>', row: read });
    expect(stdout).toContain(
      `reading stopped at row ${read.toLocaleString('en-US')} of <stdin>; the rest was not read`,
    );
    if (report.totals.pending > 0) expect(stdout).toContain('of the records read not sent yet');
    // The exit line counts what was read, loaded and not sent, and says the rest was not read.
    const loaded = report.totals.created + report.totals.updated + report.totals.unchanged;
    const exitLine = `Exit 130: Interrupted while reading: ${read.toLocaleString('en-US')} records read, ${loaded.toLocaleString('en-US')} of them loaded, ${report.totals.pending.toLocaleString('en-US')} not sent yet; <stdin> was not read after row ${read.toLocaleString('en-US')}`;
    expect(stdout).toContain(exitLine);
    expect(report.exitReason).toContain('Interrupted while reading:');
    const rows = parse(readFileSync(join(cwd, 'out', 'outcomes.csv'), 'utf8'), { columns: true }) as {
      outcome: string;
    }[];
    expect(rows).toHaveLength(report.totals.read);
    expect(rows.filter((r) => r.outcome === 'pending')).toHaveLength(report.totals.pending);
    expect(rows.filter((r) => r.outcome === 'created')).toHaveLength(report.totals.created);
    // Counted at the service: what the report says was created is there.
    expect(await svc.client.local.contacts()).toHaveLength(report.totals.created);
  }, 60_000);
});
