import { afterAll, describe, expect, it } from 'vitest';
import { loadPipeline } from '../../../src/mapping/index.js';
import { createRowNormalizer } from '../../../src/extract/row-normalizer.js';
import { tempFiles } from '../readers/read-all.js';
import { openSource } from '../../../src/readers/index.js';
import type { SourceRow } from '../../../src/readers/types.js';

const files = tempFiles();
afterAll(() => files.cleanup());

const HEADER = 'full_name,email,phone,groups,__proto__,custom.Favorite Color';
const LINES = [
  'Ada Lovelace,ada@example.com,+44 20 7946 0018,Golf;Partners,x,red',
  '"Nguyen, Jürgen",not-an-email,+34 612 202 002,,y,',
];

describe('the row normalizer', () => {
  it('maps a CSV row by its cells to the same outcome as by its values', async () => {
    const path = files.write('both.csv', `${HEADER}\n${LINES.join('\n')}\n`);
    const source = await openSource(path, {});
    const rows: SourceRow[] = [];
    for await (const item of source.items) if (item.kind === 'row') rows.push(item);
    expect(rows[0]!.cells).toEqual([
      'Ada Lovelace',
      'ada@example.com',
      '+44 20 7946 0018',
      'Golf;Partners',
      'x',
      'red',
    ]);
    const normalize = createRowNormalizer({
      pipeline: await loadPipeline('generic'),
      header: source.header,
      file: path,
      input: 0,
      strict: false,
    });
    for (const row of rows) {
      // The same row as a reader without cells (JSON, a workbook, a vCard) hands it over.
      const keyed: SourceRow = {
        kind: 'row',
        file: row.file,
        row: row.row,
        line: row.line,
        raw: row.raw,
        values: row.values,
      };
      expect(normalize(row)).toEqual(normalize(keyed));
      // The cells are all it reads: a row whose keyed view cannot be built normalizes alike.
      const cellsOnly = {
        ...keyed,
        cells: row.cells,
        get values(): Record<string, unknown> {
          throw new Error('the keyed view of a row with cells was read');
        },
      };
      expect(normalize(cellsOnly)).toEqual(normalize(keyed));
    }
    const outcomes = rows.map(normalize);
    expect(outcomes[0]).toMatchObject({
      ok: true,
      summary: { key: 'email:ada@example.com', groups: ['Golf', 'Partners'] },
    });
    expect(outcomes[1]!.issues.map((issue) => issue.field)).toContain('email');
  });
});
