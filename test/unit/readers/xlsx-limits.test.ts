import { crc32, deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_HELD_PART_BYTES } from '../../../src/readers/limits.js';
import { readSharedStrings } from '../../../src/readers/xlsx-parts.js';
import { openWorkbookZip } from '../../../src/readers/xlsx-zip.js';
import { inlineCell, workbookParts, zipOf, type ZipPart } from '../../support/zip-writer.js';
import { readAll, tempFiles } from './read-all.js';

const files = tempFiles();
afterAll(() => files.cleanup());

const HEADER = `<row r="1">${inlineCell('A1', 'full_name')}${inlineCell('B1', 'email')}</row>`;

/** A part whose stored bytes inflate to `actual` while the package says `declared`. */
const lyingPart = (name: string, actual: Buffer, declared: number): ZipPart => ({
  name,
  deflated: deflateRawSync(actual),
  size: declared,
  crc: crc32(actual),
});

const errorOf = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('workbook bounds', () => {
  it('a part said to inflate past the bound is not opened: input_unreadable naming the part and the limit', async () => {
    const strings = Buffer.from('<sst><si><t>x</t></si></sst>');
    const path = files.write(
      'bomb.xlsx',
      zipOf(workbookParts(HEADER, lyingPart('xl/sharedStrings.xml', strings, MAX_HELD_PART_BYTES + 1))),
    );
    const error = await errorOf(readAll(path));
    expect(error).toMatchObject({
      code: 'input_unreadable',
      message: expect.stringContaining(
        `the part xl/sharedStrings.xml inflates to ${MAX_HELD_PART_BYTES + 1} bytes, more than the ${MAX_HELD_PART_BYTES} bytes a workbook part may`,
      ),
    });
  });

  it('a part that inflates past what the package says is stopped there', async () => {
    const strings = Buffer.from(`<sst>${'<si><t>abcdef</t></si>'.repeat(10_000)}</sst>`);
    const path = files.write(
      'liar.xlsx',
      zipOf(workbookParts(HEADER, lyingPart('xl/sharedStrings.xml', strings, 100))),
    );
    expect(await errorOf(readAll(path))).toMatchObject({
      code: 'input_unreadable',
      message: expect.stringContaining('xl/sharedStrings.xml cannot be read'),
    });
  });

  it('shared strings past their count or their characters stop the read, naming the bound', async () => {
    const strings = `<sst>${'<si><t>abcd</t></si>'.repeat(5)}</sst>`;
    const path = files.write(
      'strings.xlsx',
      zipOf(workbookParts(HEADER, { name: 'xl/sharedStrings.xml', data: Buffer.from(strings) })),
    );
    const zip = await openWorkbookZip(path, 'strings.xlsx');
    const read = (strings: number, chars: number) =>
      readSharedStrings(zip, 'xl/sharedStrings.xml', 'strings.xlsx', { strings, chars });
    try {
      expect(await read(5, 20)).toEqual(Array(5).fill('abcd'));
      for (const [strings, chars, said] of [
        [4, 100, 'hold more than 4 strings'],
        [100, 19, 'hold more than 19 characters'],
      ] as const) {
        expect(await errorOf(read(strings, chars))).toMatchObject({
          code: 'input_unreadable',
          message: expect.stringContaining(said),
        });
      }
    } finally {
      await zip.close();
    }
  });

  it('a cell right of column XFD is damage, not a reason to size every row to it', async () => {
    const path = files.write(
      'wide.xlsx',
      zipOf(
        workbookParts(`${HEADER}<row r="2">${inlineCell('A2', 'Ann')}${inlineCell('ZZZZZZ2', 'far')}</row>`),
      ),
    );
    expect(await errorOf(readAll(path))).toMatchObject({
      code: 'input_unreadable',
      message: expect.stringContaining('a cell ZZZZZZ2 lies right of column XFD'),
    });
  });

  it('cells repeating one column cannot grow a row past the columns a sheet has', async () => {
    const path = files.write(
      'repeat.xlsx',
      zipOf(workbookParts(`${HEADER}<row r="2">${inlineCell('A2', 'x').repeat(16_385)}</row>`)),
    );
    expect(await errorOf(readAll(path))).toMatchObject({
      code: 'input_unreadable',
      message: expect.stringContaining('a row holds more than 16384 cells'),
    });
  });

  it('a merge reaching right of column XFD is left out; the sheet reads', async () => {
    const sheet = `${HEADER}<row r="2">${inlineCell('A2', 'Ann')}${inlineCell('B2', 'ann@example.com')}</row></sheetData><mergeCells><mergeCell ref="A1:ZZZZZZ1"/></mergeCells><sheetData>`;
    const { rows } = await readAll(files.write('merge.xlsx', zipOf(workbookParts(sheet))));
    expect(rows.map((row) => row.values)).toEqual([{ full_name: 'Ann', email: 'ann@example.com' }]);
  });
});
