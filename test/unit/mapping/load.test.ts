import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../../src/core/errors/index.js';
import { listPipelines, loadPipeline, parsePipeline } from '../../../src/mapping/index.js';
import { formatPipelineList } from '../../../src/cli/commands/pipelines.js';

const FILE = path.resolve('pipelines/custom.yaml');

const failure = (text: string): ImportError => {
  try {
    parsePipeline(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportError);
    return error as ImportError;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
};

describe('built-in pipelines', () => {
  it('lists the built-ins with descriptions', async () => {
    const list = await listPipelines();
    expect(list.map((p) => p.name)).toEqual([
      'address-book-csv',
      'generic',
      'mail-client-csv',
      'marketing-crm-csv',
      'plain-list',
      'sales-crm-csv',
      'vcard',
      'worknet-connections',
    ]);
    for (const p of list) {
      expect(p.description.length).toBeGreaterThan(10);
      expect(path.isAbsolute(p.file)).toBe(true);
    }
    const text = formatPipelineList(list);
    const withAliases = list.filter((p) => p.alsoReads.length > 0).length;
    expect(text.split('\n').filter(Boolean)).toHaveLength(list.length + withAliases);
    expect(text).toMatch(/^address-book-csv\s{2,}Address-book/m);
    expect(text).toMatch(/^address-book-csv .*\n\s+also reads: Google Contacts CSV, older header/m);
    expect(text).toMatch(/^mail-client-csv .*\n\s+also reads: Outlook CSV/m);
    expect(text).toMatch(/^marketing-crm-csv .*\n\s+also reads: HubSpot contacts export/m);
    expect(text).toMatch(
      /^sales-crm-csv .*\n\s+also reads: Salesforce contacts report export .*; Salesforce Data Loader/m,
    );
    expect(text).toMatch(/^plain-list .*\n\s+also reads: Excel "Name;Email;Phone" list/m);
  });

  it('loads each built-in with its dialect and defaults', async () => {
    const worknet = await loadPipeline('worknet-connections');
    expect(worknet.dialect).toEqual({ format: 'csv', skipLines: 3 });
    expect(worknet.dateFormat).toBe('D MMM YYYY');
    expect(worknet.constants).toEqual({ source: 'csv_import' });
    expect(worknet.missingColumns).toBe('warn');

    const addressBook = await loadPipeline('address-book-csv');
    expect(addressBook.dialect.encoding).toBeUndefined(); // auto: the reader detects UTF-16
    expect(addressBook.multiValueSeparator).toBe(' ::: ');
    expect(addressBook.region).toBe('US');

    const mail = await loadPipeline('mail-client-csv');
    expect(mail.emptyValues).toEqual(['0/0/00']);
    expect(mail.dateFormat).toBe('M/D/YYYY');

    const generic = await loadPipeline('generic');
    expect(generic.dialect.format).toBeUndefined(); // any of csv, tsv, json, ndjson
    expect(generic.multiValueSeparator).toBe(';');
  });

  it('loads a pipeline file by path, named after the file when it has no name', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pipelines-'));
    const file = path.join(dir, 'crm-export.yaml');
    await writeFile(
      file,
      'source:\n  delimiter: ";"\n  encoding: windows-1252\nkey: [Customer No]\nemails:\n  - column: Mail\n',
    );
    const pipeline = await loadPipeline(file);
    expect(pipeline.name).toBe('crm-export');
    expect(pipeline.file).toBe(file);
    expect(pipeline.dialect).toEqual({ delimiter: ';', encoding: 'windows-1252' });
    expect(pipeline.key).toEqual(['Customer No']);
  });

  it('refuses an unknown name or a missing path with pipeline_not_found', async () => {
    await expect(loadPipeline('nope')).rejects.toMatchObject({
      code: 'pipeline_not_found',
      message: expect.stringMatching(/Built-in: address-book-csv, generic/),
    });
    await expect(loadPipeline('genric')).rejects.toMatchObject({
      message: expect.stringMatching(/did you mean "generic"\?/),
    });
    await expect(loadPipeline('./missing.yaml')).rejects.toMatchObject({ code: 'pipeline_not_found' });
  });
});

describe('pipeline file errors name the file, line and key', () => {
  it('broken YAML', () => {
    const error = failure('name: x\nemails:\n  - column: [a, b\n');
    expect(error.code).toBe('pipeline_invalid');
    expect(error.message).toMatch(/^pipelines\/custom\.yaml:\d+: not valid YAML/);
    expect(error.context).toMatchObject({ file: FILE });
  });

  it('unknown key, with a suggestion', () => {
    const error = failure('name: x\nemails:\n  - column: Mail\n    lable: work\n');
    expect(error.message).toMatch(
      /^pipelines\/custom\.yaml:4: emails\[0\]\.lable: unknown key \(did you mean "label"\?\)/,
    );
    expect(error.context).toMatchObject({ file: FILE, line: 4, key: 'emails[0].lable' });
  });

  it('a field that is not a contact write field', () => {
    const error = failure('description: d\nfields:\n  company: Company\n  emial: Mail\n');
    expect(error.context).toMatchObject({ line: 4, key: 'fields.emial' });
    expect(error.message).toContain('unknown key');
  });

  it('wrong type', () => {
    const error = failure('fields:\n  job_title: 3\n');
    expect(error.message).toBe(
      'pipelines/custom.yaml:2: fields.job_title: expected a column name or a list of column names, got number 3',
    );
    expect(error.context).toMatchObject({ line: 2, key: 'fields.job_title' });
  });

  it('a constant the write schema refuses', () => {
    const error = failure('name: x\nconstants:\n  source: spreadsheet\n');
    expect(error.context).toMatchObject({ line: 3, key: 'constants.source' });
    expect(error.message).toContain('csv_import');
  });

  it('bad enum, bad date format, bad region, and a custom field without a column', () => {
    expect(failure('custom_fields:\n  - column: X\n    field_type: text\n').context).toMatchObject({
      line: 3,
      key: 'custom_fields[0].field_type',
    });
    expect(failure('date_format: DD/QQ/YYYY\n').context).toMatchObject({ line: 1, key: 'date_format' });
    expect(failure('region: us\n').message).toMatch(/region: expected an ISO 3166 alpha-2 region/);
    expect(failure('\n\ncustom_fields:\n  - field_type: input\n').context).toMatchObject({
      line: 4,
      key: 'custom_fields[0]',
    });
  });

  it('a top-level list instead of a mapping', () => {
    const error = failure('- a\n- b\n');
    expect(error.context).toMatchObject({ line: 1, key: '' });
    expect(error.message).toMatch(/expected object, got a list/);
  });
});

describe('YAML aliases', () => {
  const laughs = (levels: number): string => {
    const lines = ['lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i <= levels; i++) {
      lines.push(`lol${i}: &l${i} [${Array.from({ length: 9 }, () => `*l${i - 1}`).join(', ')}]`);
    }
    return `name: bomb\n${lines.join('\n')}\n`;
  };

  it('a billion laughs document is a one-line pipeline error on the first alias, at once', () => {
    // Expanded, it would be 9^10 nodes: the test timeout is the bound.
    const error = failure(laughs(9));
    expect(error.code).toBe('pipeline_invalid');
    expect(error.message).toMatch(
      /^pipelines\/custom\.yaml:3: not valid YAML: its aliases expand to too many nodes/,
    );
    expect(error.message).not.toContain('\n');
    expect(error.context).toMatchObject({ file: FILE, line: 3 });
  });

  it('an alias without its anchor names its line', () => {
    const error = failure('name: x\nfields:\n  company: *nowhere\n');
    expect(error.message).toBe(
      'pipelines/custom.yaml:3: not valid YAML: an alias names no anchor defined before it; expected a pipeline without such aliases',
    );
  });

  it('a few plain aliases still load', () => {
    const pipeline = parsePipeline('fields:\n  company: &c Company\n  job_title: *c\n', FILE);
    expect(pipeline.spec.fields).toMatchObject({ company: 'Company', job_title: 'Company' });
  });
});

describe('workbook sources', () => {
  it('declares the xlsx format and the sheet to read in `source`', () => {
    const pipeline = parsePipeline('source:\n  format: xlsx\n  sheet: Contacts\n  skip_lines: 2\n', FILE);
    expect(pipeline.dialect).toEqual({ format: 'xlsx', sheet: 'Contacts', skipLines: 2 });
  });

  it('refuses an empty sheet name', () => {
    expect(failure('source:\n  sheet: ""\n').message).toContain('sheet');
  });
});
