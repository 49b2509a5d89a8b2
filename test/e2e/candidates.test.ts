import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { twoExports } from '../../bench/two-exports.js';
import { readReport, runCli, tempDir } from './harness.js';
import { runAsCli } from './cli-in-process.js';

const HEADER = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'phone_2',
  'company',
  'job_title',
  'birthday',
  'legacy_location',
];

/** The generated exports as two generic CSVs, and where each record landed (file name, row). */
const writeExports = (dir: string) => {
  const records = twoExports({ seed: 3, people: 300 });
  const files = { crm: join(dir, 'crm.csv'), book: join(dir, 'book.csv') };
  const rows = { crm: [] as string[][], book: [] as string[][] };
  const placed = records.map((r) => {
    const p = r.person;
    rows[r.source].push([
      p.firstName ?? '',
      p.lastName ?? '',
      p.emails?.[0] ?? '',
      p.phones?.[0] ?? '',
      p.phones?.[1] ?? '',
      p.company ?? '',
      p.jobTitle ?? '',
      p.birthday ?? '',
      p.city ?? '',
    ]);
    return { entity: r.entity, file: `${r.source}.csv`, row: rows[r.source].length };
  });
  for (const source of ['crm', 'book'] as const)
    writeFileSync(files[source], stringify([HEADER, ...rows[source]]));
  return { files, placed };
};

/** `validate` of the two exports into `dir/out`. */
const validateExports = (dir: string, files: { crm: string; book: string }) =>
  runCli([
    'validate',
    files.crm,
    files.book,
    '--pipeline',
    'generic',
    '--out',
    join(dir, 'out'),
    '--state',
    join(dir, 'state'),
  ]);

describe('validate: duplicate candidates', () => {
  it('writes candidates.csv with the pairs of one person across two exports, counted in report.json', async () => {
    const dir = tempDir();
    const { files, placed } = writeExports(dir);
    const out = join(dir, 'out');
    const result = await validateExports(dir, files);
    expect(result.code).toBe(0);
    const rows = parse(readFileSync(join(out, 'candidates.csv'), 'utf8'), { columns: true }) as Record<
      string,
      string
    >[];
    const report = readReport(out);
    expect(report.candidates).toBeDefined();
    const { likely, possible, clusters } = report.candidates!;
    expect(rows.filter((r) => r.band === 'likely')).toHaveLength(likely);
    expect(rows.filter((r) => r.band === 'possible')).toHaveLength(possible);
    expect(clusters).toBeGreaterThan(0);
    expect(result.stdout).toContain(
      `Candidates: ${likely} likely, ${possible} possible same person under another e-mail: candidates.csv`,
    );

    // The pairs are the generator's people: nearly every likely pair is one entity, across the exports.
    const entityAt = new Map(placed.map((p) => [`${p.file}:${p.row}`, p.entity]));
    const entityOf = (file: string, row: string) => entityAt.get(`${file.split('/').pop()}:${row}`);
    const likelyRows = rows.filter((r) => r.band === 'likely');
    const right = likelyRows.filter((r) => entityOf(r.a_file!, r.a_row!) === entityOf(r.b_file!, r.b_row!));
    expect(likelyRows.length).toBeGreaterThan(20);
    expect(right.length / likelyRows.length).toBeGreaterThanOrEqual(0.95);
    const across = likelyRows.filter((r) => r.a_file !== r.b_file);
    expect(across.length).toBeGreaterThan(0);
    expect(Object.keys(rows[0]!)).toEqual([
      'band',
      'score',
      'a_file',
      'a_row',
      'b_file',
      'b_row',
      'b_contact_id',
      'a_name',
      'b_name',
      'a_email',
      'b_email',
      'reasons',
      'cluster',
      'decision',
    ]);
    expect(rows.every((r) => Number(r.score) >= 0.2 && Number(r.score) <= 1)).toBe(true);

    // report.html shows the pairs side by side, as text.
    const page = readFileSync(join(out, 'report.html'), 'utf8');
    expect(page.includes('id="candidates"')).toBe(true);
    expect(new RegExp(`id="candidates-likely">\\s*${likely}\\s*<`, 'u').test(page)).toBe(true);
    expect(page.includes(rows[0]!.a_name!)).toBe(true);
  });

  it('--candidates off: no candidates.csv and no candidates in report.json', async () => {
    const dir = tempDir();
    const { files } = writeExports(dir);
    const out = join(dir, 'out');
    // The same validate in this process: the summary's Candidates: line is printed from
    // report.candidates (the test above), absent here.
    const { report } = await runAsCli({
      cwd: dir,
      pipeline: 'generic',
      inputs: [files.crm, files.book],
      out: 'out',
      state: 'state',
      candidates: 'off',
      dryRun: true,
    });
    expect(report.exitCode).toBe(0);
    expect(() => readFileSync(join(out, 'candidates.csv'))).toThrow();
    expect(readReport(out).candidates).toBeUndefined();
  });
});
