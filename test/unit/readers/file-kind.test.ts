import { describe, expect, it } from 'vitest';
import { assertNotBinaryKind, describeBinaryKind } from '../../../src/readers/file-kind.js';
import { detectFormat } from '../../../src/readers/index.js';

const zipWith = (names: string): Buffer =>
  Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(names)]);
const CFB = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);

const messageOf = (prefix: Buffer, path: string): string => {
  try {
    assertNotBinaryKind(prefix, path);
  } catch (error) {
    expect(error).toMatchObject({ code: 'input_format_unsupported', context: { file: path } });
    return (error as Error).message;
  }
  return '';
};

describe('describeBinaryKind', () => {
  it('tells workbooks, OpenDocument, other archives and old Office files by their first bytes', () => {
    expect(describeBinaryKind(zipWith('[Content_Types].xml...xl/workbook.xml'))).toBe('xlsx');
    expect(describeBinaryKind(zipWith('mimetypeapplication/vnd.oasis.opendocument.spreadsheet'))).toBe('ods');
    expect(describeBinaryKind(zipWith('photos/1.jpg'))).toBe('zip');
    expect(describeBinaryKind(CFB)).toBe('cfb');
    expect(describeBinaryKind(Buffer.from('full_name,email\n'))).toBeUndefined();
    expect(describeBinaryKind(Buffer.from('PK'))).toBeUndefined();
  });
});

describe('assertNotBinaryKind', () => {
  it('says in one line what the file is and what to do', () => {
    expect(messageOf(zipWith('xl/'), 'people.csv')).toBe(
      'people.csv is an Excel workbook (.xlsx), not CSV text: rename it to .xlsx.',
    );
    expect(messageOf(zipWith('xl/'), 'people.json')).toBe(
      'people.json is an Excel workbook (.xlsx), not JSON text: rename it to .xlsx.',
    );
    expect(messageOf(zipWith('xl/'), '-')).toBe(
      'Standard input is an Excel workbook (.xlsx), not text: save it as a file ending in .xlsx and give its path.',
    );
    expect(messageOf(CFB, 'people.csv')).toBe(
      'people.csv is an old Excel 97-2003 workbook (.xls), not CSV text: save it as .xlsx or CSV.',
    );
    expect(messageOf(zipWith('mimetypeapplication/vnd.oasis.opendocument.spreadsheet'), 'p.tsv')).toBe(
      'p.tsv is an OpenDocument spreadsheet (.ods), not TSV text: save it as .xlsx or CSV.',
    );
    expect(messageOf(zipWith('a.txt'), 'p.csv')).toBe(
      'p.csv is a ZIP archive, not CSV text: unzip it and give the file inside.',
    );
    expect(messageOf(Buffer.from('a,b\n'), 'p.csv')).toBe('');
  });
});

describe('detectFormat and spreadsheets', () => {
  it('reads .xlsx and .xlsm as workbooks', () => {
    expect(detectFormat('people.xlsx')).toBe('xlsx');
    expect(detectFormat('People.XLSM')).toBe('xlsx');
  });

  it('refuses the spreadsheet formats it does not read, saying what to do', () => {
    expect(() => detectFormat('people.xls')).toThrow(
      expect.objectContaining({
        code: 'input_format_unsupported',
        message: 'people.xls is an old Excel 97-2003 workbook: save it as .xlsx or CSV.',
      }),
    );
    expect(() => detectFormat('people.ods')).toThrow(
      expect.objectContaining({
        message: 'people.ods is an OpenDocument spreadsheet: save it as .xlsx or CSV.',
      }),
    );
  });
});
