import { describe, expect, it } from 'vitest';
import { emptyTotals, type RunReport } from '../../../src/report/run-report.js';
import { formatSummary } from '../../../src/report/summary.js';
import { exitReason } from '../../../src/report/next-step.js';

const report = (over: Partial<RunReport> = {}): RunReport => ({
  runId: 'r1',
  pipeline: 'generic',
  dryRun: false,
  target: 'local',
  status: 'completed',
  startedAt: '2026-11-22T00:00:00.000Z',
  finishedAt: '2026-11-22T00:00:02.000Z',
  durationMs: 2000,
  inputs: [],
  totals: { ...emptyTotals(), read: 1200, created: 1000, rejected: 150, duplicates: 50, warnings: 7 },
  groups: { created: 2, existing: 1 },
  customFields: { created: 0, existing: 0 },
  reminders: { created: 0, updated: 0 },
  requests: { sent: 12, retried: 2, failed: 0, byEndpoint: {} },
  exitCode: 1,
  ...over,
});

describe('formatSummary', () => {
  it('shows totals, requests, throughput and the top issue codes with an example', () => {
    const text = formatSummary(report(), {
      files: ['runs/r1/report.json', 'runs/r1/issues.csv'],
      topIssues: [
        {
          code: 'invalid_email',
          severity: 'warning',
          count: 7,
          example: {
            file: 'a.csv',
            row: 4,
            line: 5,
            severity: 'warning',
            stage: 'normalize',
            field: 'Email',
            value: 'x@',
            code: 'invalid_email',
            message: 'bad',
          },
        },
      ],
    });
    expect(text).toContain('Run r1 completed in 2.0s (pipeline generic, target local)');
    expect(text).toContain(
      'read 1,200: created 1,000, updated 0, unchanged 0, duplicates 50, rejected 150, failed 0; warnings 7',
    );
    expect(text).toContain(
      'requests 12 sent, 2 retried, 0 failed; throughput 600 records/s read, 500 records/s loaded',
    );
    expect(text).toMatch(/invalid_email\s+7 warning e\.g\. a\.csv row 4, Email "x@": bad/);
    expect(text).toContain('Report: runs/r1/report.json, runs/r1/issues.csv');
  });

  it('says "would be" in a dry run, and shows the error of an aborted run', () => {
    const dry = formatSummary(report({ dryRun: true }), { files: [], topIssues: [] });
    expect(dry).toMatch(/^Dry run r1 completed/);
    expect(dry).toContain('would be created 1,000');
    const aborted = formatSummary(
      report({ status: 'aborted', error: { code: 'auth_failed', message: 'no' } }),
      { files: [], topIssues: [] },
    );
    expect(aborted).toContain('ABORTED');
    expect(aborted).toContain('error: auth_failed: no');
  });

  it('counts records not sent as pending and says how to continue', () => {
    const totals = {
      ...emptyTotals(),
      read: 1200,
      created: 700,
      rejected: 150,
      duplicates: 50,
      pending: 300,
    };
    const text = formatSummary(report({ status: 'interrupted', exitCode: 130, totals }), {
      files: [],
      topIssues: [],
    });
    expect(text).toContain('rejected 150, failed 0, pending 300; warnings 0');
    expect(text).toContain('300 not sent yet: run the same command to continue');
    expect(formatSummary(report(), { files: [], topIssues: [] })).not.toContain('not sent yet');
  });

  it('says of a stop while reading what was read, loaded and not sent, and that the rest was not read', () => {
    const totals = { ...emptyTotals(), read: 3000, created: 2400, unchanged: 79, pending: 521 };
    const stopped = report({
      status: 'interrupted',
      exitCode: 130,
      totals,
      readingStopped: { file: 'people.csv', row: 3000 },
    });
    const reason = exitReason(stopped, { maxRejects: '0' });
    expect(reason).toBe(
      'Interrupted while reading: 3,000 records read, 2,479 of them loaded, 521 not sent yet; people.csv was not read after row 3,000, nor any input after it; run the same command to continue.',
    );
    expect(reason).not.toMatch(/^Interrupted: 521 not sent yet/);
    const before = report({
      status: 'interrupted',
      exitCode: 143,
      totals: { ...emptyTotals(), read: 10, created: 10 },
      readingStopped: { file: 'b.csv', row: 0 },
    });
    expect(exitReason(before, { maxRejects: '0' })).toContain(
      '10 records read, 10 of them loaded, 0 not sent yet; b.csv and any input after it were not read;',
    );
    // Stopped after reading ended: the records not sent are all there is to continue.
    const loading = report({ status: 'interrupted', exitCode: 130, totals: { ...totals, read: 3000 } });
    expect(exitReason(loading, { maxRejects: '0' })).toBe(
      'Interrupted: 521 not sent yet; run the same command to continue.',
    );
  });

  it('tells an interrupted dry run that nothing was sent and the rest of the file is unchecked', () => {
    const totals = { ...emptyTotals(), read: 900, created: 600, pending: 300 };
    const dry = report({ status: 'interrupted', exitCode: 130, dryRun: true, totals });
    expect(formatSummary(dry, { files: [], topIssues: [] })).not.toContain('not sent yet');
    expect(exitReason(dry, { maxRejects: '0' })).toBe(
      'Interrupted: the dry run stopped after reading 900 records and sent nothing; run the same command to check the whole file.',
    );
  });

  it('names the largest share when e-mail searches dominate the requests', () => {
    const counts = (sent: number) => ({ sent, retried: 0, failed: 0 });
    const requests = (searches: number, creates: number) => ({
      sent: searches + creates,
      retried: 0,
      failed: 0,
      byEndpoint: { 'GET /v1/search/contacts': counts(searches), 'POST /v1/contacts/': counts(creates) },
    });
    const dominated = formatSummary(
      report({ requests: requests(9_800, 300), searched: { unknown: 9_000, changed: 0 } }),
      { files: [], topIssues: [] },
    );
    expect(dominated).toContain(
      '9,800 of 10,100 requests were e-mail searches: for 9,000 records this ledger did not know',
    );
    // A ledger that knew every record searched for their current values, and says so.
    const known = formatSummary(
      report({ requests: requests(9_800, 300), searched: { unknown: 0, changed: 9_700 } }),
      { files: [], topIssues: [] },
    );
    expect(known).toContain('for 9,700 records it knew whose values changed');
    expect(known).not.toContain('did not know');
    const balanced = formatSummary(report({ requests: requests(100, 300) }), { files: [], topIssues: [] });
    expect(balanced).not.toContain('e-mail searches');
  });

  it('says which run a continuation continues and what was left', () => {
    const text = formatSummary(report({ continues: { runId: 'r0', loaded: 8_000, toGo: 12_000 } }), {
      files: [],
      topIssues: [],
    });
    expect(text).toContain('continuing run r0: 8,000 loaded, 12,000 to go');
  });
});
