import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { readReport, runCli } from './harness.js';
import { people, writeGenericCsv } from './generic-csv.js';
import { perTest } from '../support/per-test.js';

const t = perTest();

const readChanges = (out: string): Record<string, string>[] =>
  parse(readFileSync(join(out, 'changes.csv'), 'utf8'), { columns: true }) as Record<string, string>[];

describe('field-level previews', () => {
  it('a dry run against existing contacts writes changes.csv with old and new values, shown in report.html', async () => {
    const svc = await t.start();
    const dir = t.dir();
    const rows = people(4);
    // Two are on the target already, with other titles (one formula-leading) and no full name.
    const seeded = await svc.client.createContacts([
      { first_name: 'Old', job_title: 'Intern', contact_emails: [{ email: 'person.0@example.com' }] },
      {
        full_name: 'Person Number1',
        job_title: '=HYPERLINK("x")',
        contact_emails: [{ email: 'person.1@example.com' }],
      },
    ]);
    const file = writeGenericCsv(dir, 'people.csv', rows);
    const out = join(dir, 'out');
    const result = await runCli(
      ['run', 'generic', file, '--dry-run', '--target', svc.service.url, '--state', join(dir, 's')].concat([
        '--out',
        out,
      ]),
      { cwd: dir, env: { CONTACT_IMPORT_API_KEY: svc.key } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(readReport(out).totals).toMatchObject({ created: 2, updated: 2 });
    const text = readFileSync(join(out, 'changes.csv'), 'utf8');
    expect(text.split('\n')[0]).toBe('file,row,contact_id,field,old,new');
    const changes = readChanges(out);
    const [a, b] = seeded.map((c) => c.id);
    const shown = changes.map((c) => [c.row, c.contact_id, c.field, c.old, c.new]);
    expect(shown).toEqual(
      expect.arrayContaining([
        ['1', a, 'full_name', '', 'Person Number0'],
        ['1', a, 'first_name', 'Old', 'Person'],
        ['1', a, 'job_title', 'Intern', 'Engineer 0'],
        ['2', b, 'job_title', `'=HYPERLINK("x")`, 'Engineer 1'],
      ]),
    );
    expect(changes.every((c) => (c.file ?? '').endsWith('people.csv'))).toBe(true);
    expect(changes.some((c) => c.field === 'full_name' && c.contact_id === b)).toBe(false);
    // Nothing was written to the target.
    const stored = await svc.client.local.contacts();
    expect(stored.map((c) => c.job_title).sort()).toEqual(['=HYPERLINK("x")', 'Intern']);

    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('Planned updates, field by field');
    expect(html).toContain('changes.csv');
    expect(html).toContain(a);
    expect(html).toContain('Intern');
    expect(html).not.toContain('=HYPERLINK("x")');
  });
});
