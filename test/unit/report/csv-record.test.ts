import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/random.js';
import { csvRecord, csvRecordOf, type CsvDialect } from '../../../src/report/csv-record.js';
import { escapeFormula, removeFormulaGuard } from '../../../src/report/spreadsheet-safety.js';

/** Characters a cell is drawn from: every one the quoting rule looks at, and some it must not. */
const ALPHABET = [
  'a',
  'Z',
  '0',
  ' ',
  ',',
  ';',
  '\t',
  '|',
  '"',
  "'",
  '\n',
  '\r',
  '=',
  '+',
  '-',
  '@',
  'é',
  '名',
  '😀',
  '\\',
  ']',
  '^',
];

const cellOf = (random: () => number): string => {
  const length = Math.floor(random() * random() * 12);
  let cell = '';
  for (let k = 0; k < length; k++) cell += ALPHABET[Math.floor(random() * ALPHABET.length)]!;
  return cell;
};

const recordOf = (random: () => number): string[] =>
  Array.from({ length: 1 + Math.floor(random() * 8) }, () => cellOf(random));

const DIALECTS: CsvDialect[] = [
  {},
  { delimiter: ';' },
  { delimiter: '\t' },
  { delimiter: '|' },
  { delimiter: '^' },
  { delimiter: ',', quoteAlso: /[\t\r]/ },
  { delimiter: ';', quoteAlso: /[\t\r]/g },
  { delimiter: ',', quoteAlso: /^$/ },
];

describe('csvRecordOf: what csv-stringify writes of the formula-guarded cells with the same options', () => {
  for (const dialect of DIALECTS) {
    it(`${JSON.stringify(dialect.delimiter ?? ',')}${dialect.quoteAlso ? ` quoting ${String(dialect.quoteAlso)} too` : ''}: 3,000 random records, byte for byte, and csv-parse reads the cells back`, () => {
      const random = seededRandom(7);
      const record = csvRecordOf(dialect);
      const options = {
        ...(dialect.delimiter ? { delimiter: dialect.delimiter } : {}),
        ...(dialect.quoteAlso ? { quoted_match: dialect.quoteAlso } : {}),
      };
      for (let n = 0; n < 3_000; n++) {
        const cells = recordOf(random);
        const written = record(cells);
        expect(written).toBe(stringify([cells.map(escapeFormula)], options));
        const read = parse(written, {
          delimiter: dialect.delimiter ?? ',',
          relax_column_count: true,
        }) as string[][];
        expect(read.map((row) => row.map(removeFormulaGuard))).toEqual([cells]);
      }
    });
  }

  it('quotes a cell only for what needs it, and ends the record with \\n', () => {
    expect(csvRecord(['plain', '', 'a,b', 'say "hi"', 'two\nlines', 'cr\r'])).toBe(
      'plain,,"a,b","say ""hi""","two\nlines","cr\r"\n',
    );
    expect(csvRecordOf({ delimiter: ';' })(['a,b', 'c;d'])).toBe('a,b;"c;d"\n');
  });

  it('guards a cell a spreadsheet would run as a formula, and not a phone number', () => {
    expect(csvRecord(['=SUM(A1)', '@x', '+1 415 555 0100', "'=x"])).toBe(
      "'=SUM(A1),'@x,+1 415 555 0100,''=x\n",
    );
  });

  it('refuses a delimiter of other than one character', () => {
    expect(() => csvRecordOf({ delimiter: '::' })).toThrow(/one character/);
  });
});
