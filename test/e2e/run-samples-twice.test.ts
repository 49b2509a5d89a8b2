import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_RUNS } from '../../scripts/sample-runs.js';
import type { RunReport } from '../../src/report/run-report.js';
import { runImport } from '../../src/run/run.js';
import { startPeer } from '../support/peer.js';
import { startRewritingProxy, type RewritingProxy } from '../support/rewriting-proxy.js';
import { readReport, ROOT, startService, tempDir, type TestService } from './harness.js';

const SCRIPT = join(ROOT, 'scripts/import-samples.js');

/** `npm start -- <args>` in `cwd`: the import-samples script, every run with the flags given. */
const importSamples = (args: string[], cwd: string, key: string) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith('CONTACT_IMPORT_')),
    ) as Record<string, string>;
    const child = spawn(process.execPath, [SCRIPT, ...args], {
      cwd,
      env: { ...env, CONTACT_IMPORT_API_KEY: key },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

/** A contact request: anything under /v1/contacts or a contact search. */
const isContactRequest = (request: string): boolean => / \/v1\/(contacts|search\/contacts)/.test(request);

let svc: TestService | undefined;
let proxy: RewritingProxy | undefined;
afterAll(async () => {
  await proxy?.close();
  await svc?.close();
});

/**
 * Each run of `npm start` as the script makes it (`run <pipeline> <inputs> --max-rejects 25%
 * --target <proxy> --state state`), in this process: what is checked of them, their reports and
 * the requests the service saw, is the library's. The script's own command line (its nine runs,
 * each summary, the hint at the end) is the `npm start` of help-examples.test.ts; the flags it
 * hands to its runs are checked below, where it is spawned.
 */
const sampleRuns = async (cwd: string, time: string): Promise<RunReport[]> => {
  const reports: RunReport[] = [];
  for (const [index, [pipeline, ...inputs]] of SAMPLE_RUNS.entries()) {
    const { report } = await runImport({
      pipeline,
      inputs: inputs.map((input) => join(ROOT, input)),
      target: { url: proxy!.url, apiKey: svc!.key },
      stateDir: join(cwd, 'state'),
      outDir: join(cwd, 'runs', `${time}-${index}`),
      maxRejects: '25%',
    });
    expect(report.exitCode, `${inputs.join(' ')}: ${JSON.stringify(report.error)}`).toBe(0);
    reports.push(report);
  }
  return reports;
};

describe('the sample runs of npm start, twice against one state and one service', () => {
  it('the second time every sample run is all unchanged and sends no contact request', async () => {
    svc = await startService();
    proxy = await startRewritingProxy(svc.service.url);
    const cwd = tempDir();
    await sampleRuns(cwd, 'first');
    const contactsAfterFirst = (await svc.client.local.contacts()).length;
    proxy.requests.length = 0;

    const second = await sampleRuns(cwd, 'second');
    expect(second).toHaveLength(SAMPLE_RUNS.length);
    for (const index of second.keys()) {
      const run = `second-${index}`;
      const out = join(cwd, 'runs', run);
      const report = readReport(out);
      const { totals } = report;
      expect({ run, created: totals.created, updated: totals.updated, failed: totals.failed }).toEqual({
        run,
        created: 0,
        updated: 0,
        failed: 0,
      });
      expect(totals.unchanged).toBeGreaterThan(0);
      // Every record read again and found unchanged: the last run in the scope is always another
      // sample's, so no run takes the rerun shortcut of byte-identical inputs.
      expect(report.inputsUnchangedSince, run).toBeUndefined();
      const rows = parse(readFileSync(join(out, 'outcomes.csv'), 'utf8'), { columns: true }) as {
        outcome: string;
      }[];
      expect(rows).toHaveLength(totals.read);
      const outcomes = rows.map((r) => r.outcome).filter((o) => !['duplicate', 'rejected'].includes(o));
      expect(outcomes).toEqual(new Array<string>(totals.unchanged).fill('unchanged'));
    }
    // Counted at the service: no contact was searched, created or updated the second time; each
    // run's one start probe (is the target empty?) is all.
    const probe = 'GET /v1/search/contacts?take=1&archived=true';
    expect(proxy.requests.filter(isContactRequest)).toEqual(new Array<string>(second.length).fill(probe));
    expect(await svc.client.local.contacts()).toHaveLength(contactsAfterFirst);
  }, 300_000);
});

describe('npm start -- <flags>', () => {
  // A target that refuses connections stops the first run at once: the script's own part, the
  // flags handed to the run and its exit code passed on, without nine runs started.
  it('hands the flags to its run, naming the inputs from its folder, and stops with a run that fails', async () => {
    const gone = await startPeer(() => undefined);
    await gone.close();
    const cwd = tempDir();
    const result = await importSamples(
      ['--target', gone.url, '--state', 'state'],
      cwd,
      'e2e-samples-key-5e1f',
    );
    expect(result.code, result.stderr + result.stdout).toBe(2);
    const [pipeline, ...inputs] = SAMPLE_RUNS[0]!;
    const named = inputs.map((input) => relative(cwd, join(ROOT, input)));
    // The run it started, and no other.
    expect(result.stdout.match(/^\$ contact-import run .*$/gm)).toEqual([
      `$ contact-import run ${pipeline} ${named.join(' ')} --max-rejects 25% --target ${gone.url} --state state`,
    ]);
    // The run's own stop, on the target the flag named.
    expect(result.stderr).toContain(gone.url);
    expect(result.stderr).toContain('connection refused');
    expect(existsSync(join(cwd, 'runs'))).toBe(false);
  });
});
