import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFormulaLeading } from '../../src/report/spreadsheet-safety.js';
import { runCli, startService, tempDir, type TestService } from '../e2e/harness.js';
import { HOSTILE } from './helpers.js';

/**
 * Every CSV the tool writes (issues.csv, rejected.csv) escapes formula-leading cells.
 * The input puts a formula payload in every field: some records load with warnings (their bad
 * values land in issues.csv), one is rejected (its raw row lands in rejected.csv).
 */
let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc.close();
});

describe('spreadsheet safety of the CSVs a run writes', () => {
  it('escapes every formula-leading cell of issues.csv and rejected.csv', async () => {
    const dir = tempDir();
    const input = join(HOSTILE, 'formula-injection.csv');
    const result = await runCli(
      [
        'run',
        'generic',
        input,
        '--target',
        svc.service.url,
        '--state',
        join(dir, 'state'),
        '--out',
        join(dir, 'out'),
      ],
      {
        cwd: dir,
        env: { CONTACT_IMPORT_API_KEY: svc.key },
      },
    );
    expect(result.code).toBe(1);
    const csvs = readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.csv'));
    // changes.csv is written by every run that resolves against a target; here it updates nobody.
    // candidates.csv by every run with candidates on; here no two records look alike.
    expect(csvs.sort()).toEqual([
      'candidates.csv',
      'changes.csv',
      'issues.csv',
      'outcomes.csv',
      'rejected.csv',
    ]);

    let escaped = 0;
    for (const name of csvs) {
      const rows = parse(readFileSync(join(dir, 'out', name), 'utf8'), {
        relax_column_count: true,
      }) as string[][];
      expect(rows.length, name).toBeGreaterThan(name === 'changes.csv' || name === 'candidates.csv' ? 0 : 1);
      for (const [r, row] of rows.entries()) {
        for (const cell of row) {
          expect(isFormulaLeading(cell), `${name} row ${r}: ${JSON.stringify(cell)}`).toBe(false);
          if (cell.startsWith("'") && isFormulaLeading(cell.slice(1))) escaped += 1;
        }
      }
    }
    // The payloads are there, escaped: the rejected row's seven formula cells at least.
    expect(escaped).toBeGreaterThanOrEqual(7);
    const rejected = parse(readFileSync(join(dir, 'out', 'rejected.csv'), 'utf8')) as string[][];
    expect(rejected[0]!.slice(-2)).toEqual(['import_row', 'import_error']);
    expect(rejected[1]!.slice(0, -2)).toEqual([
      '',
      '',
      "'=phone()",
      "'=title",
      "'@g",
      "'+co",
      "'-desc",
      "'=x",
    ]);
    expect(rejected[1]![rejected[1]!.length - 2]).toMatch(/^\d+$/);
  });
});
