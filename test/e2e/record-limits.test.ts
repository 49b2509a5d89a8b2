import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readIssues, readReport, startService, type TestService } from './harness.js';
import { runAsCli } from './cli-in-process.js';

/**
 * The record limits, pipeline side: one record carries at most 50 e-mails and 50 phones, and
 * costs 5 searches. The runs go through the library in this process, as `run generic <file> --target
 * <svc> --state <dir>/state --out <out>` (and `validate`) hand them to it: what is checked is what
 * they sent and wrote; their exit code is the report's.
 */
let svc: TestService | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await svc?.close();
  svc = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('what one record may carry', () => {
  it('keeps the first 50 e-mails and phones with one warning each, and searches its first 5 e-mails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ci-limits-'));
    dirs.push(dir);
    svc = await startService();
    // A target that holds someone: resolution searches (an empty target needs no search).
    await svc.client.createContacts([
      { full_name: 'Someone Else', contact_emails: [{ email: 'else@example.com' }] },
    ]);
    const emails = Array.from({ length: 2000 }, (_, i) => `many.${i}@example.com`);
    const phones = Array.from({ length: 70 }, (_, i) => `(415) 555-${1000 + i}`);
    const file = join(dir, 'wide.csv');
    writeFileSync(file, `full_name,emails,phones\nMany Ways,${emails.join(';')},${phones.join(';')}\n`);
    const out = join(dir, 'out');
    const result = await runAsCli({
      cwd: dir,
      svc,
      pipeline: 'generic',
      inputs: [file],
      state: 'state',
      out,
    });

    expect(result.report.exitCode).toBe(0);
    const report = readReport(out);
    expect(report.totals).toMatchObject({ read: 1, created: 1, rejected: 0 });
    // The start probe, then one exact search per e-mail for the record's first five only.
    expect(report.requests.byEndpoint['GET /v1/search/contacts']?.sent).toBe(1 + 5);
    const stored = (await svc.client.local.contacts()).find((c) => c.full_name === 'Many Ways');
    expect(stored?.contact_emails.map((e) => e.email)).toEqual(emails.slice(0, 50));
    expect(stored?.contact_phone_numbers.map((p) => p.phone_number_sanitized)).toEqual(
      phones.slice(0, 50).map((p) => `+1${p.replace(/\D/g, '')}`),
    );
    const warnings = readIssues(out).filter((i) => i.code === 'too_many_values');
    expect(warnings.map((w) => [w.severity, w.field, w.message])).toEqual([
      [
        'warning',
        'emails',
        expect.stringMatching(/^1950 more e-mails left out: a record keeps its first 50/),
      ],
      [
        'warning',
        'phones',
        expect.stringMatching(/^20 more phone numbers left out: a record keeps its first 50/),
      ],
    ]);
  });
});

describe('a list longer than one contact keeps', () => {
  it(
    'validate rejects what run would have the service refuse, said once; run sends nothing for it',
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ci-limits-'));
      dirs.push(dir);
      svc = await startService();
      const columns = Array.from({ length: 2000 }, (_, i) => `custom.F${i}`);
      const file = join(dir, 'wide-custom.csv');
      writeFileSync(
        file,
        `full_name,email,${columns.join(',')}\nAnn Lee,ann@example.com,${columns.map((_, i) => `v${i}`).join(',')}\n` +
          `Bob Ray,bob@example.com${','.repeat(columns.length)}\n`,
      );
      const checked = await runAsCli({
        cwd: dir,
        pipeline: 'generic',
        inputs: [file],
        out: 'checked',
        dryRun: true,
      });
      expect(checked.report.exitCode).toBe(1);
      const issues = readIssues(join(dir, 'checked'));
      expect(issues).toHaveLength(1);
      expect(issues[0]).toMatchObject({ row: '1', code: 'too_many_entries', field: 'custom_fields' });
      const sentence = 'one contact keeps at most 1,000';
      expect(issues[0]!.message!.split(sentence)).toHaveLength(2);

      const out = join(dir, 'out');
      const loaded = await runAsCli({
        cwd: dir,
        svc,
        pipeline: 'generic',
        inputs: [file],
        state: 'state',
        out,
      });
      expect(loaded.report.exitCode).toBe(1);
      expect(readReport(out).totals).toMatchObject({ read: 2, created: 1, rejected: 1, failed: 0 });
      expect(readReport(out).customFields.created).toBe(0);
      expect(readIssues(out).map((i) => i.code)).toEqual(['too_many_entries']);
    },
  );
});
