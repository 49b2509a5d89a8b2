import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRowMapper, listPipelines, loadPipeline, parsePipeline } from '../../../src/mapping/index.js';
import type { Pipeline } from '../../../src/mapping/index.js';
import type { RowMapper } from '../../../src/mapping/row-mapper.js';
import { openSource } from '../../../src/readers/index.js';
import { valuesOfCells } from '../../../src/readers/header-row.js';

/**
 * A row of an input with a header is mapped from its cells by column index; the keyed row (the
 * header's names to the cells, as a reader's `values` holds them) is the reference: both must give
 * the same DraftContact, row for row.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** A row with only its cells: reading its keyed view fails the test. */
const cellsOnly = (cells: readonly string[]) => ({
  cells,
  get values(): Record<string, unknown> {
    throw new Error('the keyed view of a row with cells was read');
  },
});

/** Maps each row both ways; returns how many rows mapped to something (so a test sees data went through). */
const expectBothWaysAlike = (
  mapper: RowMapper,
  header: readonly string[],
  rows: readonly (readonly string[])[],
): number => {
  let filled = 0;
  for (const cells of rows) {
    const byCells = mapper.map(cellsOnly(cells));
    const byKey = mapper.map({ values: valuesOfCells(header, cells) });
    expect(byCells, `cells ${JSON.stringify(cells)}`).toStrictEqual(byKey);
    if (JSON.stringify(byCells).length > 100) filled += 1;
  }
  return filled;
};

const HEADER_SAMPLES = [
  'generic.csv',
  'address-book.csv',
  'address-book-legacy.csv',
  'mail-client.csv',
  'marketing-crm.csv',
  'plain-list-eu.csv',
  'sales-crm-dataloader.csv',
  'sales-crm-report.csv',
  'worknet-connections.csv',
  'people.xlsx',
];

/** A header input's header and the cells of its rows, read with a pipeline's dialect (its format the file's). */
const readCells = async (file: string, pipeline: Pipeline) => {
  const format = file.endsWith('.xlsx') ? 'xlsx' : 'csv';
  const source = await openSource(file, { ...pipeline.dialect, format });
  const rows: (readonly string[])[] = [];
  for await (const item of source.items) if (item.kind === 'row' && item.cells) rows.push(item.cells);
  return { header: source.header!, rows };
};

describe('a header row mapped by its cells and by its keyed values', () => {
  it('gives the same draft for every sample under every built-in pipeline that reads a header', async () => {
    let compared = 0;
    for (const summary of await listPipelines()) {
      const pipeline = await loadPipeline(summary.name);
      if (pipeline.dialect.format === 'vcard' || pipeline.dialect.format === 'json') continue;
      for (const sample of HEADER_SAMPLES) {
        const { header, rows } = await readCells(path.join(ROOT, 'samples', sample), pipeline);
        const mapper = createRowMapper(pipeline, header, sample);
        expectBothWaysAlike(mapper, header, rows);
        compared += rows.length;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('gives the same draft for the hostile header fixtures (duplicate, empty names, formulas)', async () => {
    const pipeline = await loadPipeline('generic');
    for (const fixture of ['duplicate-headers.csv', 'empty-header-names.csv', 'formula-injection.csv']) {
      const { header, rows } = await readCells(path.join(ROOT, 'test/fixtures/hostile', fixture), pipeline);
      expect(expectBothWaysAlike(createRowMapper(pipeline, header, fixture), header, rows)).toBeGreaterThan(
        0,
      );
    }
  });
});

/** Every kind of reference a pipeline file has, several of them naming hostile columns. */
const HOSTILE_PIPELINE = `
name: hostile
source:
  multi_value_separator: ";"
  empty_values: ["0/0/00", "n/a"]
  missing_columns: ignore
key: [Email, constructor, __proto__, Missing, import_row, "=Calc"]
source_id: [Id, __proto__]
name_parts:
  full: [Full Name, __proto__]
  first: first_name
  last: [constructor, Last]
  nickname: toString
fields:
  company: [Company, company]
  job_title: valueOf
  website: hasOwnProperty
  description: [Missing, "=Calc"]
  legacy_contact_addresses: ["Address {n}", Address, __proto__]
emails:
  - column: Email
    label: work
  - column: "E-mail {n} - Value"
    label_column: ["E-mail {n} - Label", "E-mail {n} - Type"]
  - column: __proto__
    separator: false
phones:
  - column: "Phone {n}"
    label_column: "Phone {n} Label"
  - column: constructor
groups:
  - column: [Labels, Groups]
    drop: ["* myContacts"]
    starred: "* starred"
    strip_prefix: "#"
custom_fields:
  - column: [Color, colour]
    name: Favorite Color
  - column_prefix: "custom."
  - column_prefix: "__"
  - column: "=Calc"
  - from_object: Extra
  - from_object: __proto__
reminders:
  - text: Reminder
    due: Due
    recurrence: Repeat
    date_format: DD/MM/YYYY
  - list: Reminders
    text: text
  - list: constructor
    text: text
`;

const HOSTILE_HEADER = [
  'Full Name',
  '__proto__',
  'first_name',
  'FIRST NAME',
  'constructor',
  'Last',
  'toString',
  'Company',
  'company',
  'COMPANY',
  'Address 1',
  'address_2',
  'Address',
  'Email',
  'Email',
  'e mail',
  'E-mail 1 - Value',
  'E-mail 1 - Label',
  'e-mail 2 - value',
  'E-mail 2 - Type',
  'E-mail 10 - Value',
  'E-mail 01 - Value',
  'Phone 1',
  'phone_1',
  'Phone 1 Label',
  'Labels',
  'Groups',
  'colour',
  'custom.a',
  'custom.',
  'custom.a',
  '__x',
  '',
  '',
  'Extra',
  'Reminder',
  'Due',
  'Repeat',
  'Reminders',
  'Id',
  'hasOwnProperty',
  'valueOf',
  '=Calc',
];

/** Our rejected file of the same input: its columns added, names and cells guarded as we write them. */
const REJECTED_HEADER = [
  'import_row',
  ...HOSTILE_HEADER.slice(0, -1),
  "'=Calc",
  '=Calc',
  "'=Calc",
  'import_error',
];

const CELLS = [
  '',
  ' ',
  'n/a',
  ' n/a ',
  '0/0/00',
  'ada@example.com',
  'a@x.org; b@y.org',
  ' ;; ',
  '+1 415 555 0100',
  "'=1+2",
  "'+44 20 7946 0018",
  '=SUM(1)',
  '* starred',
  '* myContacts',
  '#Team; Friends;* starred',
  '{"a":1}',
  '[1,2]',
  '42',
  ' Ada Lovelace ',
];

/** Rows of seeded cells, one in four with every cell filled. */
const seededRows = (width: number, count: number, seed: number): string[][] => {
  let state = seed;
  const next = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  return Array.from({ length: count }, (_, row) =>
    Array.from({ length: width }, () => {
      const cell = CELLS[Math.floor(next() * CELLS.length)]!;
      return row % 4 === 0 && cell.trim() === '' ? 'x' : cell;
    }),
  );
};

describe('hostile headers mapped by cells and by keyed values', () => {
  const hostile = parsePipeline(HOSTILE_PIPELINE, '/tmp/hostile.yaml');

  it('maps every reference kind alike over duplicate, empty, prototype and relaxed names', () => {
    const mapper = createRowMapper(hostile, HOSTILE_HEADER, 'in.csv');
    const rows = seededRows(HOSTILE_HEADER.length, 400, 7);
    expect(expectBothWaysAlike(mapper, HOSTILE_HEADER, rows)).toBeGreaterThan(300);
    // The later of two columns of one name is read, and a column named __proto__ is data.
    const row = HOSTILE_HEADER.map((name, i) => (name === 'Email' ? `e${i}@example.com` : ''));
    row[1] = 'Proto Name';
    const draft = mapper.map(cellsOnly(row));
    expect(draft.emails).toStrictEqual([
      { value: `e${HOSTILE_HEADER.lastIndexOf('Email')}@example.com`, field: 'Email', label: 'work' },
      { value: 'Proto Name', field: '__proto__' },
    ]);
    expect(draft.name.full).toStrictEqual({ value: 'Proto Name', field: '__proto__' });
    expect(draft.key).toEqual([
      `e${HOSTILE_HEADER.lastIndexOf('Email')}@example.com`,
      '',
      'Proto Name',
      '',
      '',
      '',
    ]);
  });

  it('maps our rejected file of it alike, guards taken off names and cells', () => {
    const mapper = createRowMapper(hostile, REJECTED_HEADER, 'rejected.csv');
    const rows = seededRows(REJECTED_HEADER.length, 400, 11);
    expect(expectBothWaysAlike(mapper, REJECTED_HEADER, rows)).toBeGreaterThan(300);
    const row = REJECTED_HEADER.map(() => '');
    row[REJECTED_HEADER.indexOf('__proto__')] = "'=Proto";
    // Two names that unguard alike: the later in the keyed row's key order, the name first seen
    // later (`=Calc`), though a guarded one comes after it.
    row[REJECTED_HEADER.indexOf('=Calc')] = 'plain';
    row[REJECTED_HEADER.lastIndexOf("'=Calc")] = 'guarded';
    const draft = mapper.map(cellsOnly(row));
    expect(draft.name.full).toStrictEqual({ value: '=Proto', field: '__proto__' });
    expect(draft.customFields.filter((field) => field.name === '=Calc').map((field) => field.value)).toEqual([
      'plain',
    ]);
  });

  it('maps the hostile header alike under the built-in pipelines', async () => {
    for (const name of ['generic', 'address-book-csv', 'mail-client-csv']) {
      const mapper = createRowMapper(await loadPipeline(name), HOSTILE_HEADER, 'in.csv');
      expectBothWaysAlike(mapper, HOSTILE_HEADER, seededRows(HOSTILE_HEADER.length, 100, 3));
    }
  });
});
