import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_RUNS } from '../../scripts/sample-runs.js';
import { runImport } from '../../src/run/run.js';
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

describe('npm start twice against one state and one service', () => {
  it('the second time every sample run is all unchanged and sends no contact request', async () => {
    svc = await startService();
    proxy = await startRewritingProxy(svc.service.url);
    const cwd = tempDir();
    // The first time in this process, each run as the script makes it (`run <pipeline> <inputs>
    // --max-rejects 25% --target <proxy> --state state`); its own command line is the `npm start`
    // of help-examples.test.ts. What is checked is the second time, by npm start. The inputs are
    // named here by their absolute paths and by the script relative to its folder, so the second
    // time is no rerun of byte-identical inputs that skips reading: every record is read and found
    // unchanged.
    for (const [index, [pipeline, ...inputs]] of SAMPLE_RUNS.entries()) {
      const first = await runImport({
        pipeline,
        inputs: inputs.map((input) => join(ROOT, input)),
        target: { url: proxy.url, apiKey: svc.key },
        stateDir: join(cwd, 'state'),
        outDir: join(cwd, 'runs', `first-${index}`),
        maxRejects: '25%',
      });
      expect(first.report.exitCode, `${inputs.join(' ')}: ${JSON.stringify(first.report.error)}`).toBe(0);
    }
    const firstRuns = readdirSync(join(cwd, 'runs')).sort();
    const contactsAfterFirst = (await svc.client.local.contacts()).length;
    proxy.requests.length = 0;

    const second = await importSamples(['--target', proxy.url, '--state', 'state'], cwd, svc.key);
    expect(second.code, second.stderr + second.stdout).toBe(0);
    const secondRuns = readdirSync(join(cwd, 'runs'))
      .sort()
      .filter((run) => !firstRuns.includes(run));
    expect(secondRuns).toHaveLength(firstRuns.length);
    for (const run of secondRuns) {
      const out = join(cwd, 'runs', run);
      const { totals } = readReport(out);
      expect({ run, created: totals.created, updated: totals.updated, failed: totals.failed }).toEqual({
        run,
        created: 0,
        updated: 0,
        failed: 0,
      });
      expect(totals.unchanged).toBeGreaterThan(0);
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
    expect(proxy.requests.filter(isContactRequest)).toEqual(new Array<string>(secondRuns.length).fill(probe));
    expect(await svc.client.local.contacts()).toHaveLength(contactsAfterFirst);
  }, 300_000);
});
