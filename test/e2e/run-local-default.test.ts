import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLocalClient } from '../support/local-client.js';
import { startLocalService } from '../../src/server/index.js';
import { readReport, runCli, SAMPLES, tempDir } from './harness.js';
import { runAsCli } from './cli-in-process.js';

describe('contact-import run with no target', () => {
  it('loads into the local service in the state folder, says so, and a later dry run resolves from the ledger alone', async () => {
    const cwd = tempDir();
    const sample = join(SAMPLES, 'generic.csv');
    const first = await runCli(['run', 'generic', sample, '--out', 'first', '--max-rejects', '1'], { cwd });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Data went to the local service');
    expect(readReport(join(cwd, 'first'))).toMatchObject({ target: 'local', totals: { created: 10 } });
    const db = join(cwd, '.contact-import', 'local-service.sqlite');
    const keyFile = join(cwd, '.contact-import', 'local-service.key');
    expect(existsSync(db)).toBe(true);

    // The key file is for the user only, and the data is really in that database.
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = readFileSync(keyFile, 'utf8').trim();
    const service = await startLocalService({ port: 0, db, apiKeys: [key] });
    const client = createLocalClient({ baseUrl: service.url, apiKey: key });
    expect(await client.local.contacts()).toHaveLength(10);
    await client.close();
    await service.close();

    // `run --dry-run` and `validate` hand the library the same dry run (validate reads no
    // target, and none is given here): once, in this process, for what it resolved.
    const dry = await runAsCli({
      cwd,
      pipeline: 'generic',
      inputs: [sample],
      out: 'dry',
      maxRejects: '1',
      dryRun: true,
    });
    expect(dry.report.exitCode, JSON.stringify(dry.report.error)).toBe(0);
    const report = readReport(join(cwd, 'dry'));
    expect(report.totals).toMatchObject({ read: 12, unchanged: 10, created: 0, updated: 0 });
    expect(report.requests.sent).toBe(0);
  });
});
