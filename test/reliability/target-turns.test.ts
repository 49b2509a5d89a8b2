import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { people, writeGenericCsv } from '../e2e/generic-csv.js';
import { cliArgs, readReport, startService, type TestService } from '../e2e/harness.js';
import { expectExactlyLoaded } from './helpers.js';
import { keptMessages } from '../support/in-process-runs.js';
import { runImport } from '../../src/run/run.js';

/**
 * Two runs on different state directories, same target and user, at the same time.
 * Neither ledger knows what the other creates; on one machine they take turns on the target's
 * gate, and the second resolves against what the first stored. One run is the command line's, the
 * other runs in this process with the same gates' folder (as the command line's host controls
 * would choose it): two processes meet at the gate either way.
 */
let svc: TestService | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await svc?.close();
  svc = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const run = (cwd: string, args: string[], env: Record<string, string>) =>
  new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, cliArgs(args), { cwd, env: { ...process.env, ...env } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });

describe('two state directories, one target and user', () => {
  it('never store a person twice, however their loads overlap', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ci-turns-'));
    dirs.push(dir);
    svc = await startService({ latencyMs: 20 });
    // 100 people in both files: whoever loads second must find them, not create them again. Small
    // chunks give each run 20 requests, so the two loads can meet at the gate.
    const first = people(200);
    const second = people(200, 100);
    const fileA = writeGenericCsv(dir, 'a.csv', first);
    const fileB = writeGenericCsv(dir, 'b.csv', second);
    // A gate folder of this test's own, so no other run on the machine takes part.
    const env = { CONTACT_IMPORT_API_KEY: svc.key, CONTACT_IMPORT_LOCK_DIR: join(dir, 'gates') };
    const args = (file: string, name: string) => [
      'run',
      'generic',
      file,
      '--target',
      svc!.service.url,
      '--state',
      join(dir, `state-${name}`),
      '--out',
      join(dir, `out-${name}`),
      '--chunk-size',
      '10',
    ];

    const { logger, messages } = keptMessages();
    const [a, b] = await Promise.all([
      runImport({
        pipeline: 'generic',
        inputs: [fileA],
        target: { url: svc.service.url, apiKey: svc.key },
        stateDir: join(dir, 'state-a'),
        outDir: join(dir, 'out-a'),
        chunkSize: 10,
        hostControls: { gateDir: env.CONTACT_IMPORT_LOCK_DIR },
        logger,
      }).then(({ report }) => ({ code: report.exitCode, stderr: messages.join('\n') })),
      run(dir, args(fileB, 'b'), env),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const ra = readReport(join(dir, 'out-a'));
    const rb = readReport(join(dir, 'out-b'));
    const everyone = people(300);
    expect(await expectExactlyLoaded(svc.client, everyone)).toBe(300);
    expect(ra.totals.created + rb.totals.created, 'each person created once').toBe(300);
    expect(ra.totals.updated + rb.totals.updated, 'the shared 100 found by the later run').toBe(100);
    // One of them saw the other holding the target, if their loads met at all.
    const waited = [a, b].filter((r) => r.stderr.includes('from another state directory'));
    expect(waited.length).toBeLessThanOrEqual(1);
  });
});
