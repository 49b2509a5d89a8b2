import { appendFileSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runImport, type RunOptions, type RunResult } from '../../src/run/run.js';
import { BUILTIN_DIR } from '../../src/mapping/load.js';
import { people, writeGenericCsv } from './generic-csv.js';
import { outcomes, startService, tempDir, type TestService } from './harness.js';

let svc: TestService;
let dir: string;
let runs = 0;

/** 30 people, then a record with no identity, a duplicate of row 1 and an invalid e-mail. */
const writeExport = (name: string): string => {
  const file = writeGenericCsv(dir, name, people(30));
  appendFileSync(
    file,
    [
      ',,,,,',
      'Person Number0,Person.0@Example.com,,,Even;Everyone,red',
      'Ada Phoneonly,not-an-email,+44 20 7946 0958,Analyst,Odd,blue',
    ].join('\n') + '\n',
  );
  return file;
};

const run = (inputs: string[], extra: Partial<RunOptions> = {}): Promise<RunResult> =>
  runImport({
    pipeline: 'generic',
    inputs,
    target: { url: svc.service.url, apiKey: svc.key },
    stateDir: join(dir, 'state'),
    outDir: join(dir, `out-${++runs}`),
    maxRejects: 5,
    ...extra,
  });

const read = (path: string): string => readFileSync(path, 'utf8');

beforeEach(async () => {
  dir = tempDir();
  svc = await startService();
});
afterEach(async () => {
  await svc.close();
});

describe('a rerun of byte-identical inputs', () => {
  it('reads nothing, sends no contact request, and reports the same outcome as unchanged', async () => {
    const file = writeExport('people.csv');
    const first = await run([file]);
    expect(first.report.inputsUnchangedSince).toBeUndefined();
    expect(first.report.totals).toMatchObject({ read: 33, created: 31, rejected: 1, duplicates: 1 });
    expect(first.report.totals.warnings).toBeGreaterThan(0);
    const storedBefore = await svc.client.local.contacts();

    const second = await run([file]);
    const { report } = second;
    expect(report.inputsUnchangedSince).toBe(first.report.runId);
    expect(report.status).toBe('completed');
    expect(report.totals).toEqual({
      ...first.report.totals,
      created: 0,
      updated: 0,
      failed: 0,
      unchanged: first.report.totals.created + first.report.totals.updated + first.report.totals.unchanged,
    });
    expect(outcomes(report)).toBe(report.totals.read);
    expect(report.inputs).toEqual(first.report.inputs);
    expect(report.groups).toEqual({ created: 0, existing: first.report.groups.created });
    expect(report.customFields).toEqual({ created: 0, existing: 1 });
    // Only the connection probe went out.
    const probe = { sent: 1, retried: 0, failed: 0 };
    expect(report.requests).toEqual({ ...probe, byEndpoint: { 'GET /v1/search/contacts': probe } });
    expect(report.exitCode).toBe(first.report.exitCode);
    expect(second.outDir).not.toBe(first.outDir);
    expect(read(second.issuesPath)).toBe(read(first.issuesPath));
    expect(second.rejectedPaths.map((p) => p.slice(second.outDir.length))).toEqual(
      first.rejectedPaths.map((p) => p.slice(first.outDir.length)),
    );
    expect(read(second.rejectedPaths[0]!)).toBe(read(first.rejectedPaths[0]!));
    expect(second.topIssues).toEqual(first.topIssues);
    expect(await svc.client.local.contacts()).toEqual(storedBefore);

    // A shortcut run leaves a snapshot too: the third identical run reuses it.
    const third = await run([file]);
    expect(third.report.inputsUnchangedSince).toBe(report.runId);
    expect(read(third.issuesPath)).toBe(read(first.issuesPath));
  });

  it('reuses the files in place when --out is the same folder as the last run', async () => {
    const file = writeExport('people.csv');
    const out = join(dir, 'latest');
    const first = await run([file], { outDir: out });
    const issues = read(first.issuesPath);
    const rejected = read(first.rejectedPaths[0]!);
    const second = await run([file], { outDir: out });
    expect(second.report.inputsUnchangedSince).toBe(first.report.runId);
    expect(read(second.issuesPath)).toBe(issues);
    expect(read(second.rejectedPaths[0]!)).toBe(rejected);
    expect(JSON.parse(read(second.reportPath))).toMatchObject({ runId: second.report.runId });
    expect((await run([file], { outDir: out })).report.inputsUnchangedSince).toBe(second.report.runId);
  });
});

describe('anything not identical takes the full path', () => {
  it('one byte changed: the file is read and the change is loaded', async () => {
    const file = writeExport('people.csv');
    await run([file]);
    writeFileSync(file, read(file).replace('Engineer 7,', 'Engineer 8,'));
    const second = await run([file]);
    expect(second.report.inputsUnchangedSince).toBeUndefined();
    expect(second.report.totals).toMatchObject({ read: 33, updated: 1, unchanged: 30, created: 0 });
    const stored = (await svc.client.local.contacts()).find((c) =>
      c.contact_emails.some((e) => e.email === 'person.7@example.com'),
    );
    expect(stored?.job_title).toBe('Engineer 8');
  });

  it('another region, another pipeline definition, --reread: full path each time', async () => {
    const file = writeExport('people.csv');
    await run([file]);
    const region = await run([file], { region: 'GB' });
    expect(region.report.inputsUnchangedSince).toBeUndefined();
    expect(region.report.totals.read).toBe(33);

    const pipeline = join(dir, 'generic-copy.yaml');
    copyFileSync(join(BUILTIN_DIR, 'generic.yaml'), pipeline);
    // Same settings as the region run (whose snapshot is now the last), a changed definition.
    writeFileSync(pipeline, read(pipeline).replace(/^description: .*$/m, 'description: a copy'));
    const other = await run([file], { pipeline, region: 'GB' });
    expect(other.report.inputsUnchangedSince).toBeUndefined();
    expect(other.report.totals.read).toBe(33);

    const reread = await run([file], { pipeline, region: 'GB', reread: true });
    expect(reread.report.inputsUnchangedSince).toBeUndefined();
    expect(reread.report.totals).toMatchObject({ read: 33, unchanged: 31 });
    // Not forced: the same command now reuses the --reread run's outcome.
    const again = await run([file], { pipeline, region: 'GB' });
    expect(again.report.inputsUnchangedSince).toBe(reread.report.runId);
  });

  it('another run in between into the same scope: the original file is read again', async () => {
    const file = writeExport('people.csv');
    const first = await run([file]);
    const otherFile = writeGenericCsv(dir, 'others.csv', people(5, 100));
    await run([otherFile]);
    const again = await run([file]);
    expect(again.report.inputsUnchangedSince).toBeUndefined();
    expect(again.report.totals).toMatchObject({ read: 33, unchanged: first.report.totals.created });
    // A dry run in between changes nothing in the ledger: the shortcut stays available.
    await run([file], { dryRun: true });
    expect((await run([file])).report.inputsUnchangedSince).toBe(again.report.runId);
  });

  it('the last run was interrupted: the rerun reads and finishes the job', async () => {
    const file = writeExport('people.csv');
    const controller = new AbortController();
    const interrupted = await run([file], {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'read') controller.abort();
      },
    });
    expect(interrupted.report.status).toBe('interrupted');
    expect(interrupted.report.totals.created).toBe(0);
    const rerun = await run([file]);
    expect(rerun.report.inputsUnchangedSince).toBeUndefined();
    expect(rerun.report.totals).toMatchObject({ created: 31, failed: 0 });
  });

  it("the last run's out dir was deleted: full path, and the files are written afresh", async () => {
    const file = writeExport('people.csv');
    const first = await run([file]);
    rmSync(first.outDir, { recursive: true });
    const second = await run([file]);
    expect(second.report.inputsUnchangedSince).toBeUndefined();
    expect(second.report.totals).toMatchObject({ read: 33, unchanged: 31 });
    // The empty row as read, then its import_row and import_error.
    expect(read(second.rejectedPaths[0]!)).toMatch(/^,,,,,,\d+,\S/m);
  });

  it('a target that was reset while the ledger says it holds contacts: the file is read again', async () => {
    const file = writeExport('people.csv');
    await run([file]);
    await svc.close();
    // A fresh service at a new database but the same key: the ledger's scope is the same.
    const url = svc.service.url;
    svc = await startService({ apiKeys: [svc.key], port: Number(new URL(url).port) });
    expect(svc.service.url).toBe(url);
    const again = await run([file]);
    expect(again.report.inputsUnchangedSince).toBeUndefined();
    expect(again.report.totals.read).toBe(33);
    expect(outcomes(again.report)).toBe(33);
    // The ledger no longer describes the target: every contact is created again, none is "unchanged".
    expect(again.report.totals).toMatchObject({ created: 31, unchanged: 0, failed: 0 });
    expect(await svc.client.local.contacts()).toHaveLength(31);
    const third = await run([file]);
    expect(third.report.inputsUnchangedSince).toBe(again.report.runId);
  });

  it('stdin is never fingerprinted', async () => {
    const file = writeExport('people.csv');
    const { Readable } = await import('node:stream');
    await run(['-'], { stdin: Readable.from([readFileSync(file)]) });
    const second = await run(['-'], { stdin: Readable.from([readFileSync(file)]) });
    expect(second.report.inputsUnchangedSince).toBeUndefined();
    expect(second.report.totals).toMatchObject({ read: 33, unchanged: 31 });
  });
});
