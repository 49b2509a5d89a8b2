import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImport, type RunResult } from '../../src/run/run.js';
import { people, writeGenericCsv } from './generic-csv.js';
import { outcomes, tempDir } from './harness.js';

/**
 * A dry run with nothing to compare with (empty ledger, no search) counts the staged identities
 * instead of reading every record back; its figures must be the ones the full comparison gives.
 */
describe('a dry run against the local default target', () => {
  const dryRun = (file: string, stateDir: string, out: string): Promise<RunResult> =>
    runImport({
      pipeline: 'generic',
      inputs: [file],
      dryRun: true,
      stateDir,
      outDir: out,
      maxRejects: '100%',
    });

  it('counts the same creates with an empty ledger as with a ledger it has to consult', async () => {
    const dir = tempDir();
    const stateDir = join(dir, 'state');
    const file = writeGenericCsv(dir, 'export.csv', people(40));
    // A duplicate (same e-mail, other case) and a record with no identity.
    appendFileSync(file, 'Person Number0,PERSON.0@example.com,,,Even,red\n,,,,,\n');

    const fresh = await dryRun(file, stateDir, join(dir, 'fresh'));
    expect(fresh.report.totals).toMatchObject({
      read: 42,
      created: 40,
      updated: 0,
      unchanged: 0,
      duplicates: 1,
      rejected: 1,
      failed: 0,
    });
    expect(outcomes(fresh.report)).toBe(42);

    // Other people loaded into the local target: now the ledger has entries and is consulted.
    const others = writeGenericCsv(dir, 'others.csv', people(5, 1000));
    const loaded = await runImport({
      pipeline: 'generic',
      inputs: [others],
      stateDir,
      outDir: join(dir, 'load'),
    });
    expect(loaded.report.totals.created).toBe(5);

    const consulted = await dryRun(file, stateDir, join(dir, 'consulted'));
    expect(consulted.report.totals).toEqual(fresh.report.totals);

    // And a record the ledger knows, changed, is an update in the dry run, not a create.
    appendFileSync(file, 'Person Number1000,person.1000@example.com,,Chief,Even,red\n');
    const withKnown = await dryRun(file, stateDir, join(dir, 'known'));
    expect(withKnown.report.totals).toMatchObject({ read: 43, created: 40, updated: 1 });
  });

  it('interrupted after reading: every staged record is pending, nothing is lost', async () => {
    const dir = tempDir();
    const file = writeGenericCsv(dir, 'export.csv', people(30));
    const controller = new AbortController();
    const result = await runImport({
      pipeline: 'generic',
      inputs: [file],
      dryRun: true,
      stateDir: join(dir, 'state'),
      outDir: join(dir, 'out'),
      maxRejects: '100%',
      signal: controller.signal,
      onProgress: ({ phase }) => {
        if (phase === 'read') controller.abort();
      },
    });
    expect(result.report.status).toBe('interrupted');
    expect(result.report.totals).toMatchObject({ read: 30, created: 0, failed: 0, pending: 30 });
    expect(outcomes(result.report)).toBe(30);
    // Pending records are no one's mistake: no rejected file, no issue.
    expect(result.rejectedPaths).toEqual([]);
    expect(readFileSync(result.issuesPath, 'utf8').trim().split('\n')).toHaveLength(1);
  });
});
