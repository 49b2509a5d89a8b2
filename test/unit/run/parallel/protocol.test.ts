import { afterAll, describe, expect, it } from 'vitest';
import { deserialize, serialize } from 'node:v8';
import { loadPipeline } from '../../../../src/mapping/index.js';
import { normalizeRowOf, type WorkerSetup } from '../../../../src/run/parallel/protocol.js';
import { createRowNormalizer } from '../../../../src/run/parallel/row-normalizer.js';
import { readAll, tempFiles } from '../../readers/read-all.js';
import { openSource } from '../../../../src/readers/index.js';
import type { SourceRow } from '../../../../src/core/types.js';

const files = tempFiles();
afterAll(() => files.cleanup());

const HEADER = 'full_name,email,phone,groups,__proto__,custom.Favorite Color';
const LINES = [
  'Ada Lovelace,ada@example.com,+44 20 7946 0018,Golf;Partners,x,red',
  '"Nguyen, Jürgen",not-an-email,+34 612 202 002,,y,',
];

/** The CSV rows exactly as the reader hands them over (not copied into plain objects). */
const readRows = async (path: string): Promise<SourceRow[]> => {
  const source = await openSource(path, {});
  const rows: SourceRow[] = [];
  for await (const item of source.items) if (item.kind === 'row') rows.push(item);
  return rows;
};

describe('a CSV row on its way to a normalize worker', () => {
  it('carries its cells in header order; its values are those cells keyed by the header', async () => {
    const path = files.write('cells.csv', `${HEADER}\n${LINES.join('\n')}\n`);
    const [first] = await readRows(path);
    expect(first!.cells).toEqual([
      'Ada Lovelace',
      'ada@example.com',
      '+44 20 7946 0018',
      'Golf;Partners',
      'x',
      'red',
    ]);
    expect(Object.keys(first!.values)).toEqual(HEADER.split(','));
    expect(Object.getPrototypeOf(first!.values)).toBe(Object.prototype);
    expect(first!.values['custom.Favorite Color']).toBe('red');
  });

  it('is sent as its cells (a JSON row as its values), and both normalize to the same outcome', async () => {
    const path = files.write('both.csv', `${HEADER}\n${LINES.join('\n')}\n`);
    const rows = await readRows(path);
    const { source } = await readAll(path);
    const setup: WorkerSetup = {
      pipeline: await loadPipeline('generic'),
      header: source.header,
      file: path,
      input: 0,
      strict: false,
    };
    const normalize = createRowNormalizer(setup);
    for (const row of rows) {
      // What crosses the thread boundary: a structured clone of the message.
      const sent = deserialize(serialize(normalizeRowOf(row))) as ReturnType<typeof normalizeRowOf>;
      expect(sent).toEqual({
        file: path,
        row: row.row,
        line: row.line,
        chars: row.raw.length,
        cells: row.cells,
      });
      expect('values' in sent).toBe(false);
      const keyed = {
        file: row.file,
        row: row.row,
        line: row.line,
        chars: row.raw.length,
        values: row.values,
      };
      expect(normalize(sent)).toEqual(normalize(keyed));
    }
    const outcomes = rows.map((row) => normalize(normalizeRowOf(row)));
    expect(outcomes[0]).toMatchObject({
      ok: true,
      summary: { key: 'email:ada@example.com', groups: ['Golf', 'Partners'] },
    });
    expect(outcomes[1]!.issues.map((issue) => issue.field)).toContain('email');
    // A row read without cells (JSON, a workbook, a vCard) still goes as its values.
    const jsonRow: SourceRow = {
      kind: 'row',
      file: 'x.json',
      row: 1,
      line: 1,
      values: { a: 1 },
      raw: '{"a":1}',
    };
    expect(normalizeRowOf(jsonRow)).toEqual({ file: 'x.json', row: 1, line: 1, chars: 7, values: { a: 1 } });
  });
});
