import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalClient } from '../support/local-client.js';
import { isImportError } from '../../src/core/errors/index.js';
import { runImport } from '../../src/run/run.js';
import type { RunReport } from '../../src/report/run-report.js';
import { TESTDATA, outcomes, readIssues, startService, tempDir, type TestService } from '../e2e/harness.js';
import { HOSTILE } from './helpers.js';

/**
 * Every file of the hostile corpus (test/fixtures/hostile/, see its README) and every
 * CSV and JSON case of ../shared/testdata is run for real against the local service, each as its own
 * user. Each must end as a completed run whose issues name file and row, or as a clear stop (exit 2)
 * naming the file, with nothing sent. The huge inputs (100,000 columns, a 50 MB line, a
 * million-deep JSON) run through the CLI in hostile-huge.test.ts, under a memory cap.
 */
const corpus = readdirSync(HOSTILE)
  .filter((f) => f !== 'README.md')
  .map((f) => join(HOSTILE, f));
const shared = ['csv-spectrum/csvs', 'csv-test-data/csv', 'csv-spectrum/json', 'csv-test-data/json'].flatMap(
  (dir) => readdirSync(join(TESTDATA, dir)).map((f) => join(TESTDATA, dir, f)),
);

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc.close();
});

type Ending = { kind: 'completed'; report: RunReport } | { kind: 'stopped'; message: string };

/** One run of one file as a fresh user; checks what every ending must keep, returns the ending. */
const runHostile = async (file: string): Promise<Ending> => {
  const dir = tempDir();
  const apiKey = svc.service.addUser();
  const client = createLocalClient({ baseUrl: svc.service.url, apiKey });
  const name = basename(file);
  try {
    let ending: Ending;
    try {
      const { report } = await runImport({
        pipeline: 'generic',
        inputs: [file],
        target: { url: svc.service.url, apiKey },
        stateDir: join(dir, 'state'),
        outDir: join(dir, 'out'),
      });
      ending =
        report.status === 'completed'
          ? { kind: 'completed', report }
          : { kind: 'stopped', message: `${report.error?.code}: ${report.error?.message}` };
      if (report.status !== 'completed') {
        expect(report).toMatchObject({ status: 'aborted', exitCode: 2 });
        expect(report.requests.sent, 'only the target probe was sent').toBeLessThanOrEqual(1);
      }
    } catch (error) {
      // What the CLI prints as one line: a run-level code and message. Anything else is a crash.
      expect(isImportError(error), `${name}: ${String(error)}`).toBe(true);
      ending = {
        kind: 'stopped',
        message: `${(error as { code: string }).code}: ${(error as Error).message}`,
      };
    }
    const stored = await client.local.contacts();
    if (ending.kind === 'stopped') {
      expect(ending.message, 'the stop names the file').toContain(name);
      expect(stored, 'nothing is sent for an input the run cannot read').toEqual([]);
      return ending;
    }
    const { report } = ending;
    expect([0, 1]).toContain(report.exitCode);
    expect(outcomes(report)).toBe(report.totals.read);
    expect(stored).toHaveLength(report.totals.created);
    for (const issue of readIssues(join(dir, 'out'))) {
      expect(issue.file, 'each issue names the file').toBe(file);
      expect(issue.row, 'and the row').toMatch(/^\d+$/);
    }
    return ending;
  } finally {
    await client.close();
  }
};

describe('hostile input corpus', () => {
  it('holds at least 30 files', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(30);
  });

  // A bound for a hang only: one file takes a second or two, many more on a loaded machine.
  it.each(corpus.map((f) => [basename(f), f]))(
    '%s ends honestly',
    { timeout: 120_000 },
    async (_name, file) => {
      const ending = await runHostile(file);
      const expected = EXPECTED[basename(file)];
      if (expected) expected(ending);
    },
  );

  it.each(shared.map((f) => [f.slice(TESTDATA.length + 1), f]))(
    'shared testdata %s ends honestly',
    { timeout: 120_000 },
    async (_name, file) => {
      await runHostile(file);
    },
  );
});

const completed = (ending: Ending): RunReport => {
  expect(ending.kind).toBe('completed');
  return (ending as { report: RunReport }).report;
};
const stopped = (pattern: RegExp) => (ending: Ending) => {
  expect(ending.kind).toBe('stopped');
  expect((ending as { message: string }).message).toMatch(pattern);
};

/** Pinned endings where the right answer is clear. Files not listed need only end honestly. */
const EXPECTED: Record<string, (ending: Ending) => void> = {
  'empty.csv': stopped(/input_unreadable/),
  'binary-png.csv': stopped(/input_unreadable/),
  'all-nul.csv': stopped(/input_unreadable/),
  'not-an-array.json': stopped(/expected a JSON array/),
  'truncated.json': stopped(/truncated\.json/),
  'header-only.csv': (e) => expect(completed(e).totals.read).toBe(0),
  'empty-array.json': (e) => expect(completed(e).totals.read).toBe(0),
  'truncated-open-quote.csv': (e) =>
    expect(completed(e).totals).toMatchObject({ read: 2, created: 1, rejected: 1 }),
  'stray-quote-resync.csv': (e) =>
    expect(completed(e).totals).toMatchObject({ read: 202, created: 201, rejected: 1 }),
  'space-after-closing-quote.csv': (e) =>
    expect(completed(e).totals).toMatchObject({ read: 4, created: 3, rejected: 1 }),
  'open-quote-mid-file.csv': (e) =>
    expect(completed(e).totals).toMatchObject({ read: 102, created: 101, rejected: 1 }),
  'mixed-line-endings.csv': (e) => expect(completed(e).totals).toMatchObject({ created: 4, rejected: 0 }),
  // Its bad row is Windows-1252 text: read as that, with a warning (mixed_encoding).
  'invalid-utf8-mid-file.csv': (e) =>
    expect(completed(e).totals).toMatchObject({ read: 3002, created: 3002, rejected: 0 }),
  'ragged-rows.csv': (e) => expect(completed(e).totals).toMatchObject({ created: 2, rejected: 2 }),
  'bad-line.ndjson': (e) => expect(completed(e).totals).toMatchObject({ created: 2 }),
  'formula-injection.csv': (e) =>
    expect(completed(e).totals).toMatchObject({ read: 3, created: 2, rejected: 1 }),
  'no-identity.csv': (e) => expect(completed(e).totals).toMatchObject({ read: 2, rejected: 2, created: 0 }),
  'prototype-keys.json': (e) => {
    expect(completed(e).totals.created).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  },
};
