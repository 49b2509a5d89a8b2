import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CsvParse } from '../../../src/readers/csv-parse-adapter.js';
import { CsvRecordReader, type CsvEntry } from '../../../src/readers/csv-records.js';

/**
 * What the CSV reader relies on in csv-parse, pinned to the installed version: a new version is
 * taken by updating the version below once these still pass (src/readers/csv-parse-adapter.ts).
 */
const PINNED = '7.0.3';
const installed = (
  JSON.parse(
    readFileSync(new URL('../../../node_modules/csv-parse/package.json', import.meta.url), 'utf8'),
  ) as {
    version: string;
  }
).version;

const settings = { delimiter: ',', relaxQuotes: false, maxRecordBytes: 1024 };

const parseAll = async (text: string, slices: number[] = []) => {
  const records: { fields: string[]; bytes: number }[] = [];
  const parser = new CsvParse(settings, (fields, bytes) => records.push({ fields, bytes }));
  const buffer = Buffer.from(text);
  let at = 0;
  const errors = [];
  for (const size of [...slices, buffer.length]) {
    const error = parser.write(buffer.subarray(at, Math.min(buffer.length, at + size)));
    at = Math.min(buffer.length, at + size);
    errors.push(error);
  }
  errors.push(await parser.end());
  return { records, errors };
};

const readEntries = async (text: string, relaxQuotes = false): Promise<CsvEntry[]> => {
  const chunks = Readable.from([Buffer.from(text)])[Symbol.asyncIterator]();
  const reader = new CsvRecordReader(chunks, { ...settings, relaxQuotes, firstLine: 1 });
  const out: CsvEntry[] = [];
  for (let batch = await reader.next(); batch; batch = await reader.next()) out.push(...batch);
  return out;
};

describe(`csv-parse ${PINNED}, as the CSV reader uses it`, () => {
  it('is the version these behaviours were checked against', () => {
    expect(installed).toBe(PINNED);
  });

  it('hands each record over while write runs, with the bytes parsed up to past its line break', async () => {
    const text = 'a,b\r\n"x\ny",2\n\n3,4';
    const records: { fields: string[]; bytes: number }[] = [];
    const parser = new CsvParse(settings, (fields, bytes) => records.push({ fields, bytes }));
    expect(parser.write(Buffer.from(text))).toBeUndefined();
    // Two records are complete when write returns; the last has no line break until the end.
    expect(records).toEqual([
      { fields: ['a', 'b'], bytes: 5 },
      { fields: ['x\ny', '2'], bytes: 13 },
    ]);
    expect(await parser.end()).toBeUndefined();
    expect(records[2]).toEqual({ fields: ['3', '4'], bytes: Buffer.byteLength(text) });
  });

  it('gives the same records and offsets whatever the slices written', async () => {
    const text = 'name,email\n"Lee, Ann",ann@example.com\r\nBob,"b""ob"\n';
    const whole = await parseAll(text);
    expect(whole.errors.every((e) => e === undefined)).toBe(true);
    for (const slices of [[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [12], [25, 3]]) {
      expect((await parseAll(text, slices)).records).toEqual(whole.records);
    }
  });

  it('says a malformed record through on_skip, naming its line, without an error on the stream', async () => {
    const { records, errors } = await parseAll('a,b\n1,"x"y\n3,4\n');
    expect(records[0]).toEqual({ fields: ['a', 'b'], bytes: 4 });
    const error = errors.find((e) => e !== undefined);
    expect(error?.code).toBe('CSV_INVALID_CLOSING_QUOTE');
    expect(error?.message).toMatch(/line 2/);
  });

  it('bounds a record by max_record_size', async () => {
    const { errors } = await parseAll(`a,b\n1,${'x'.repeat(2000)}\n`);
    expect(errors.find((e) => e !== undefined)?.code).toBe('CSV_MAX_RECORD_SIZE');
  });

  it('an unclosed quote at the end of the input is said when the input ends', async () => {
    const { errors } = await parseAll('a,b\n1,"open\n2,3\n');
    expect(errors.slice(0, -1).every((e) => e === undefined)).toBe(true);
    expect(errors.at(-1)?.code).toBe('CSV_QUOTE_NOT_CLOSED');
  });

  it("the reader's line numbers, raw text and resume line follow from them", async () => {
    const entries = await readEntries('a,b\n\n1,"x\ny"\n2,"bad"q\n3,4\n5,6\n');
    expect(entries).toEqual([
      { kind: 'record', fields: ['a', 'b'], raw: 'a,b', line: 1 },
      { kind: 'record', fields: ['1', 'x\ny'], raw: '1,"x\ny"', line: 3 },
      {
        kind: 'malformed',
        raw: '2,"bad"q',
        line: 5,
        reason: expect.stringMatching(/quote/i) as string,
        resumedAt: 6,
      },
      { kind: 'record', fields: ['3', '4'], raw: '3,4', line: 6 },
      { kind: 'record', fields: ['5', '6'], raw: '5,6', line: 7 },
    ]);
  });

  it('relax_quotes reads a quote inside an unquoted field as text', async () => {
    const entries = await readEntries('a,b\n1,x"y\n', true);
    expect(entries[1]).toMatchObject({ kind: 'record', fields: ['1', 'x"y'], line: 2 });
  });
});
