import { copyFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import yauzl from 'yauzl';
import { afterAll, describe, expect, it } from 'vitest';
import { isImportError } from '../../../src/core/errors/index.js';
import { openSource } from '../../../src/readers/index.js';
import { readAll, tempFiles } from './read-all.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/xlsx');
const PEOPLE = join(FIXTURES, 'people.xlsx');
const STYLES_LAST = join(FIXTURES, 'people-styles-last.xlsx');

const files = tempFiles();
afterAll(() => files.cleanup());

const errorOf = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

const partNames = async (path: string): Promise<string[]> => {
  const zip = await yauzl.openPromise(path, { lazyEntries: true });
  const names: string[] = [];
  await new Promise<void>((done, fail) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      names.push(entry.fileName);
      zip.readEntry();
    });
    zip.on('end', done);
    zip.on('error', fail);
    zip.readEntry();
  });
  zip.close();
  return names;
};

const PEOPLE_ROWS = [
  {
    row: 1,
    line: 2,
    values: {
      full_name: 'Grace Hopper',
      email: 'grace@example.com',
      phone: '12025550143',
      birthday: '1906-12-09',
      company: 'US Navy',
      job_title: 'Rear Admiral',
      description: 'Works at US Navy',
    },
  },
  {
    row: 2,
    line: 3,
    values: {
      full_name: 'Ada Lovelace',
      phone: '+44 20 7946 0000',
      birthday: '',
      description: 'Works at Analytical Engines',
    },
  },
  {
    row: 3,
    line: 5,
    values: { full_name: 'Katherine Johnson', phone: '4155552671', birthday: '1918-08-26' },
  },
  { row: 4, line: 6, values: { full_name: 'Alan Turing', phone: '', company: '', description: '' } },
  {
    row: 5,
    line: 7,
    values: { full_name: 'Margaret Hamilton', phone: '16502530000', birthday: '1936-08-17' },
  },
];

describe('xlsx reader: the first sheet of a workbook LibreOffice wrote', () => {
  it('reads the header row, then each row that shows something, as the sheet shows it', async () => {
    const { source, rows, problems } = await readAll(PEOPLE);
    expect(source.header).toEqual([
      'full_name',
      'email',
      'phone',
      'birthday',
      'company',
      'job_title',
      'description',
    ]);
    expect(source.rawHeader).toBe('full_name,email,phone,birthday,company,job_title,description');
    expect(source.headerIssues).toEqual([]);
    expect(problems).toEqual([]);
    // Row 4 of the sheet is empty: passed over, and it takes no row number.
    expect(rows).toMatchObject(PEOPLE_ROWS);
    expect(source.info).toEqual({
      path: PEOPLE,
      format: 'xlsx',
      encoding: 'utf-8',
      delimiter: null,
      rows: 5,
      sheet: 'People',
    });
  });

  it('keeps the raw row as a CSV line of the shown values, for rejected.csv', async () => {
    const { rows } = await readAll(PEOPLE);
    expect(rows[0]!.raw).toBe(
      'Grace Hopper,grace@example.com,12025550143,1906-12-09,US Navy,Rear Admiral,Works at US Navy',
    );
    expect(rows[3]!.raw).toBe('Alan Turing,alan@example.com,,1912-06-23,,,');
  });

  it('reads dates the same when the styles part comes after the sheets in the zip', async () => {
    const names = await partNames(STYLES_LAST);
    expect(names.indexOf('xl/styles.xml')).toBeGreaterThan(names.indexOf('xl/worksheets/sheet1.xml'));
    expect(names.indexOf('xl/sharedStrings.xml')).toBeGreaterThan(names.indexOf('xl/worksheets/sheet1.xml'));
    const { rows } = await readAll(STYLES_LAST);
    expect(rows).toMatchObject(PEOPLE_ROWS);
  });

  it('is read whatever the extension case, and .xlsm too', async () => {
    const path = files.write('PEOPLE.XLSM', '');
    copyFileSync(PEOPLE, path);
    const { rows } = await readAll(path);
    expect(rows).toHaveLength(5);
  });
});

describe('xlsx reader: number formats', () => {
  it('shows each value as its format shows it; dates as ISO dates, big numbers with every digit', async () => {
    const { rows } = await readAll(PEOPLE, { sheet: 'Types' });
    const shown = Object.fromEntries(rows.map((r) => [r.values['label'], r.values['value']]));
    expect(shown).toEqual({
      general_big: '442079460000',
      plain_phone: '12025550143',
      date_iso: '2024-03-15',
      date_us: '2024-03-15',
      date_time: '2024-03-15T14:30',
      day_month: '--12-22',
      time: '12:00',
      percent: '25%',
      grouped: '1,234.50',
      leading_zeros: '00123',
      boolean: 'TRUE',
      formula_sum: '0.3',
      formula_error: '#DIV/0!',
      text_digits: '00123',
      two_lines: 'line one\nline two',
      decimal: '-3.25',
    });
    expect(rows.find((r) => r.values['label'] === 'two_lines')!.raw).toBe('two_lines,"line one\nline two"');
  });
});

describe('xlsx reader: sheets', () => {
  it('reads the sheet named by the dialect, exactly or by a unique case-insensitive match', async () => {
    for (const sheet of ['Other people', 'other PEOPLE']) {
      const { source, rows } = await readAll(PEOPLE, { sheet });
      expect(source.info.sheet).toBe('Other people');
      expect(rows.map((r) => r.values['full_name'])).toEqual(['Radia Perlman', 'Linus Example']);
    }
  });

  it('reads a hidden sheet when it is named, though the default skips hidden sheets', async () => {
    const { rows } = await readAll(PEOPLE, { sheet: 'Hidden' });
    expect(rows.map((r) => r.values['full_name'])).toEqual(['Nobody']);
  });

  it('refuses an unknown sheet name, listing the sheets there are', async () => {
    const error = await errorOf(readAll(PEOPLE, { sheet: 'Contacts' }));
    expect(isImportError(error) && error.code).toBe('sheet_not_found');
    expect((error as Error).message).toBe(
      `${PEOPLE} has no sheet named "Contacts"; its sheets are "People", "Other people", "Merged", "Types", "Stray", "Hidden" (hidden), "Empty": give one of them to --sheet.`,
    );
  });

  it('refuses a sheet with no cells as empty, naming it', async () => {
    const error = await errorOf(readAll(PEOPLE, { sheet: 'Empty' }));
    expect(isImportError(error) && error.code).toBe('input_unreadable');
    expect((error as Error).message).toContain('Sheet "Empty" of');
    expect((error as Error).message).toContain('is empty');
  });

  it('passes over skipLines sheet rows before the header', async () => {
    const { source, rows } = await readAll(PEOPLE, { skipLines: 2 });
    expect(source.header).toEqual([
      'Ada Lovelace',
      'ada@example.com',
      '+44 20 7946 0000',
      'column 4',
      'Analytical Engines',
      'Analyst',
      'Works at Analytical Engines',
    ]);
    expect(rows.map((r) => [r.row, r.line])).toEqual([
      [1, 5],
      [2, 6],
      [3, 7],
    ]);
  });
});

describe('xlsx reader: headers and stray values', () => {
  it('names each column under a merged header cell, and an empty header cell as CSV does', async () => {
    const { source, rows } = await readAll(PEOPLE, { sheet: 'Merged' });
    expect(source.header).toEqual(['full_name', 'email', 'email (2)', 'column 4', 'phone']);
    expect(source.headerIssues).toEqual([
      {
        code: 'empty_header',
        column: 3,
        name: '',
        renamed: 'email (2)',
        message: `Header cell 3 (C) of ${PEOPLE} is part of the merged cell B1:C1 "email"; its values are read as "email (2)".`,
      },
      {
        code: 'empty_header',
        column: 4,
        name: '',
        renamed: 'column 4',
        message: `Header cell 4 of ${PEOPLE} is empty; its values are read as "column 4".`,
      },
    ]);
    expect(rows[0]!.values).toEqual({
      full_name: 'Ada Lovelace',
      email: 'ada@example.com',
      'email (2)': 'ada@work.example.com',
      'column 4': 'a note',
      phone: '2025550143',
    });
  });

  it("carries each row's cells in header order, as a CSV row does: the shape the normalize stage maps", async () => {
    const source = await openSource(PEOPLE, { sheet: 'Merged' });
    const cells: (readonly string[] | undefined)[] = [];
    for await (const item of source.items) if (item.kind === 'row') cells.push(item.cells);
    expect(cells[0]).toEqual([
      'Ada Lovelace',
      'ada@example.com',
      'ada@work.example.com',
      'a note',
      '2025550143',
    ]);
  });

  it('makes a row with a value right of the header a row_ragged problem, and reads on', async () => {
    const { items } = await readAll(PEOPLE, { sheet: 'Stray' });
    expect(items).toMatchObject([
      {
        kind: 'problem',
        row: 1,
        line: 2,
        code: 'row_ragged',
        raw: 'Stray Person,stray@example.com,,a note right of the header',
        message: `Row 1 of ${PEOPLE} (sheet "Stray" row 2) has a value in column D, right of the header's last column B; give that column a header or clear the cell.`,
      },
      { kind: 'row', row: 2, line: 3, values: { full_name: 'Kept Person', email: 'kept@example.com' } },
    ]);
  });
});

describe('xlsx reader: files that are not workbooks', () => {
  it('names an old Excel 97-2003 file for what it is', async () => {
    const path = files.write('old.xlsx', '');
    copyFileSync(join(FIXTURES, 'people.xls'), path);
    const error = await errorOf(readAll(path));
    expect(isImportError(error) && error.code).toBe('input_format_unsupported');
    expect((error as Error).message).toBe(
      `${path} is an old Excel 97-2003 workbook or a password-protected one: save it as .xlsx without a password, or as CSV.`,
    );
  });

  it('refuses text named .xlsx as not a workbook', async () => {
    const path = files.write('text.xlsx', 'full_name,email\nA,a@example.com\n');
    const error = await errorOf(readAll(path));
    expect(isImportError(error) && error.code).toBe('input_unreadable');
    expect((error as Error).message).toMatch(
      /^\S+text\.xlsx is not an Excel workbook that can be read \(.+\); expected an \.xlsx file saved by a spreadsheet program\.$/,
    );
  });

  it('refuses a missing workbook as input_not_found', async () => {
    const error = await errorOf(readAll(join(files.dir, 'missing.xlsx')));
    expect(isImportError(error) && error.code).toBe('input_not_found');
  });

  it('refuses a workbook on standard input, saying to give its path', async () => {
    const error = await errorOf(readAll('-', { format: 'xlsx' }));
    expect(isImportError(error) && error.code).toBe('input_format_unsupported');
  });
});

describe('xlsx reader: stopping early', () => {
  /** This process's open descriptors of the fixture workbook. */
  const openFds = (): number =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === PEOPLE;
      } catch {
        return false; // closed meanwhile (the listing's own descriptor)
      }
    }).length;

  it('closes the workbook file when the caller stops reading early', async () => {
    const before = openFds();
    const source = await openSource(PEOPLE, {});
    expect(openFds()).toBe(before + 1);
    for await (const item of source.items) {
      expect(item).toMatchObject({ row: 1 });
      break;
    }
    expect(openFds()).toBe(before);
  });

  it('closes the workbook file when close() is called before reading', async () => {
    const before = openFds();
    const source = await openSource(PEOPLE, {});
    await source.close?.();
    expect(openFds()).toBe(before);
  });
});
