import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { isImportError } from '../../../src/core/errors/index.js';
import { detectFormat } from '../../../src/readers/index.js';
import { readAll, tempFiles } from './read-all.js';

const files = tempFiles();
afterAll(() => files.cleanup());

const utf16be = (text: string): Buffer => Buffer.from(text, 'utf16le').swap16();

describe('detectFormat', () => {
  it('tells formats by extension, case-insensitively, and stdin as CSV', () => {
    expect(detectFormat('a.csv')).toBe('csv');
    expect(detectFormat('dir/A.TSV')).toBe('tsv');
    expect(detectFormat('x.json')).toBe('json');
    expect(detectFormat('x.ndjson')).toBe('ndjson');
    expect(detectFormat('x.jsonl')).toBe('ndjson');
    expect(detectFormat('-')).toBe('csv');
  });

  it('refuses an unknown extension with input_format_unknown naming the file', () => {
    expect(() => detectFormat('contacts.docx')).toThrow(
      expect.objectContaining({ code: 'input_format_unknown', context: { file: 'contacts.docx' } }),
    );
  });
});

describe('encodings', () => {
  const cases: Array<[string, Buffer, string]> = [
    ['UTF-8', Buffer.from('name,city\ncafé,Zürich\n', 'utf8'), 'utf-8'],
    [
      'UTF-8 with BOM',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('name,city\ncafé,Zürich\n')]),
      'utf-8',
    ],
    [
      'UTF-16LE with BOM',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name,city\ncafé,Zürich\n', 'utf16le')]),
      'utf-16le',
    ],
    [
      'UTF-16BE with BOM',
      Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be('name,city\ncafé,Zürich\n')]),
      'utf-16be',
    ],
    ['UTF-16LE without BOM', Buffer.from('name,city\ncafé,Zürich\n', 'utf16le'), 'utf-16le'],
    ['UTF-16BE without BOM', utf16be('name,city\ncafé,Zürich\n'), 'utf-16be'],
    [
      'windows-1252',
      Buffer.from([
        ...Buffer.from('name,city\ncaf'),
        0xe9,
        ...Buffer.from(',Z'),
        0xfc,
        ...Buffer.from('rich\n'),
      ]),
      'windows-1252',
    ],
  ];
  for (const [label, bytes, encoding] of cases) {
    it(`detects ${label} and reads café, Zürich (BOM stripped)`, async () => {
      const { source, rows } = await readAll(files.write(`${label.replaceAll(' ', '-')}.csv`, bytes));
      expect(source.info.encoding).toBe(encoding);
      expect(source.header).toEqual(['name', 'city']);
      expect(source.rawHeader).toBe('name,city');
      expect(rows.map((row) => row.values)).toEqual([{ name: 'café', city: 'Zürich' }]);
      expect(rows[0]!.raw).toBe('café,Zürich');
    });
  }

  it('takes a declared encoding over detection', async () => {
    // Valid UTF-8 bytes for "Ã©" read as declared windows-1252 stay two characters.
    const path = files.write('declared.csv', Buffer.from('n\ncafé\n', 'utf8'));
    const { source, rows } = await readAll(path, { encoding: 'windows-1252' });
    expect(source.info.encoding).toBe('windows-1252');
    expect(rows[0]!.values).toEqual({ n: 'cafÃ©' });
  });

  it('refuses an unknown declared encoding naming it', async () => {
    const path = files.write('unknown-enc.csv', 'a\n1\n');
    const error = await readAll(path, { encoding: 'klingon-8' }).catch((caught: unknown) => caught);
    expect(isImportError(error) && error.code).toBe('input_unreadable');
    expect((error as Error).message).toContain('klingon-8');
  });

  it('reads a 2-byte character split across read chunks', async () => {
    const prefix = 'n\n' + 'x'.repeat(64 * 1024 - 3) + '\n';
    const path = files.write('split.csv', Buffer.from(`${prefix}é\n`, 'utf8'));
    const { rows, problems } = await readAll(path);
    expect(problems).toEqual([]);
    expect(rows.map((row) => row.values['n'])).toEqual(['x'.repeat(64 * 1024 - 3), 'é']);
  });
});

describe('line endings and layout', () => {
  for (const [label, eol] of [
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ] as const) {
    it(`reads ${label} line endings, a quoted line break kept as written`, async () => {
      const text = ['a,b', '1,2', `3,"x${eol}y"`, '5,6'].join(eol) + eol;
      const { rows, source } = await readAll(files.write(`eol-${label}.csv`, text));
      expect(source.rawHeader).toBe('a,b');
      expect(rows.map((row) => row.values)).toEqual([
        { a: '1', b: '2' },
        { a: '3', b: `x${eol}y` },
        { a: '5', b: '6' },
      ]);
      expect(rows.map((row) => row.raw)).toEqual(['1,2', `3,"x${eol}y"`, '5,6']);
      expect(rows.map((row) => row.row)).toEqual([1, 2, 3]);
    });
  }

  it('reads mixed line endings in one file', async () => {
    const { rows } = await readAll(files.write('mixed.csv', 'a,b\r\n1,2\n3,4\r5,6\r\n7,8'));
    expect(rows.map((row) => row.values['a'])).toEqual(['1', '3', '5', '7']);
    expect(rows.map((row) => row.raw)).toEqual(['1,2', '3,4', '5,6', '7,8']);
  });

  it('reads a CRLF split across read chunks as one line break', async () => {
    const first = 'a\n' + 'y'.repeat(64 * 1024 - 3);
    const { rows } = await readAll(files.write('crlf-split.csv', `${first}\r\nz\r\n`));
    expect(rows.map((row) => row.values['a'])).toEqual(['y'.repeat(64 * 1024 - 3), 'z']);
  });

  it('keeps blank lines out of rows: row numbers count records only', async () => {
    const { rows } = await readAll(files.write('blank.csv', '\n\na,b\n\n1,2\n\r\n\n3,4\n\n'));
    expect(rows.map((row) => [row.row, row.raw])).toEqual([
      [1, '1,2'],
      [2, '3,4'],
    ]);
  });

  it('skips preamble lines before the header', async () => {
    const text = 'Notes:\r\n"An export, with a quote\r\n\r\nFirst Name,Last Name\r\nAda,Lovelace\r\n';
    const { source, rows } = await readAll(files.write('preamble.csv', text), { skipLines: 3 });
    expect(source.header).toEqual(['First Name', 'Last Name']);
    expect(rows).toEqual([
      {
        kind: 'row',
        file: expect.any(String),
        row: 1,
        line: 5,
        values: { 'First Name': 'Ada', 'Last Name': 'Lovelace' },
        raw: 'Ada,Lovelace',
      },
    ]);
  });

  it('says how many lines a file has when it is shorter than its preamble', async () => {
    const path = files.write('short-preamble.csv', 'one\ntwo\n');
    const error = await readAll(path, { skipLines: 3 }).catch((caught: unknown) => caught);
    expect(isImportError(error) && error.code).toBe('input_unreadable');
    expect((error as Error).message).toContain('fewer than the 3 preamble line(s)');
  });

  it('trims nothing', async () => {
    const { rows, source } = await readAll(files.write('spaces.csv', ' a , b \n 1 ,"  2 "\n'));
    expect(source.header).toEqual([' a ', ' b ']);
    expect(rows[0]!.values).toEqual({ ' a ': ' 1 ', ' b ': '  2 ' });
  });
});

describe('delimiters', () => {
  for (const [label, delimiter] of [
    ['comma', ','],
    ['semicolon', ';'],
    ['tab', '\t'],
    ['pipe', '|'],
  ] as const) {
    it(`detects ${label} from the header line`, async () => {
      const text = `name${delimiter}"note${label === 'comma' ? ';' : ','} with other"${delimiter}x\nAda${delimiter}"a, b; c"${delimiter}1\n`;
      const { source, rows } = await readAll(files.write(`delim-${label}.csv`, text));
      expect(source.info.delimiter).toBe(delimiter);
      expect(source.header).toHaveLength(3);
      expect(rows[0]!.values['name']).toBe('Ada');
      expect(Object.values(rows[0]!.values)[1]).toBe('a, b; c');
    });
  }

  it('counts only delimiters outside quotes', async () => {
    const { source } = await readAll(files.write('quoted-delims.csv', '"a;b;c;d",x,y\n1,2,3\n'));
    expect(source.info.delimiter).toBe(',');
  });

  it('reads .tsv as tab-separated even when commas dominate, with inch marks literal', async () => {
    const { source, rows } = await readAll(
      files.write('people.tsv', 'name\tnote\nAda\ta, b, c, 5" screen\n'),
    );
    expect(source.info).toMatchObject({ format: 'tsv', delimiter: '\t' });
    expect(rows[0]!.values).toEqual({ name: 'Ada', note: 'a, b, c, 5" screen' });
  });

  it('takes a declared delimiter', async () => {
    const { source, rows } = await readAll(files.write('declared.csv', 'a,b;c\n1,2;3\n'), { delimiter: ';' });
    expect(source.header).toEqual(['a,b', 'c']);
    expect(rows[0]!.values).toEqual({ 'a,b': '1,2', c: '3' });
  });
});

describe('headers and rows', () => {
  it('renames duplicate and empty header names and exposes them as header issues', async () => {
    const { source, rows, problems } = await readAll(
      files.write('dup.csv', 'Email,,Email,Email (2),Email\na,b,c,d,e\n'),
    );
    expect(source.header).toEqual(['Email', 'column 2', 'Email (3)', 'Email (2)', 'Email (4)']);
    expect(source.rawHeader).toBe('Email,,Email,Email (2),Email');
    expect(rows[0]!.values).toEqual({
      Email: 'a',
      'column 2': 'b',
      'Email (3)': 'c',
      'Email (2)': 'd',
      'Email (4)': 'e',
    });
    expect(problems).toEqual([]);
    expect(source.headerIssues?.map((issue) => [issue.code, issue.column, issue.renamed])).toEqual([
      ['empty_header', 2, 'column 2'],
      ['duplicate_header', 3, 'Email (3)'],
      ['duplicate_header', 5, 'Email (4)'],
    ]);
  });

  it('keeps a column named __proto__ as an own value', async () => {
    const { rows } = await readAll(files.write('proto.csv', '__proto__,a\nx,y\n'));
    expect(Object.keys(rows[0]!.values)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(rows[0]!.values)).toBe(Object.prototype);
  });

  it('reports ragged rows per row and reads on; raw text is verbatim', async () => {
    const path = files.write('ragged.csv', 'a,b,c\n1,2,3\n4,5\n6,7,8,9\n"x,y",z,"w"\n');
    const { items, source } = await readAll(path);
    expect(items).toEqual([
      { kind: 'row', file: path, row: 1, line: 2, values: { a: '1', b: '2', c: '3' }, raw: '1,2,3' },
      {
        kind: 'problem',
        file: path,
        row: 2,
        line: 3,
        code: 'row_ragged',
        message: `Row 2 of ${path} has 2 field(s); the header has 3.`,
        raw: '4,5',
      },
      {
        kind: 'problem',
        file: path,
        row: 3,
        line: 4,
        code: 'row_ragged',
        message: `Row 3 of ${path} has 4 field(s); the header has 3.`,
        raw: '6,7,8,9',
      },
      {
        kind: 'row',
        file: path,
        row: 4,
        line: 5,
        values: { a: 'x,y', b: 'z', c: 'w' },
        raw: '"x,y",z,"w"',
      },
    ]);
    expect(source.info.rows).toBe(4);
  });

  it('counts info.rows as items are consumed', async () => {
    const { openSource } = await import('../../../src/readers/index.js');
    const source = await openSource(files.write('count.csv', 'a\n1\n2\n3\n'), {});
    expect(source.info.rows).toBe(0);
    const iterator = source.items[Symbol.asyncIterator]();
    await iterator.next();
    expect(source.info.rows).toBe(1);
    await iterator.return?.();
  });

  it('makes one problem of a record with several stray quotes, and numbers later rows right', async () => {
    const path = files.write('stray.csv', 'a,b\n1,x"y"z"w\n2,ok\n');
    const { items } = await readAll(path);
    expect(items.map((item) => [item.kind, item.row])).toEqual([
      ['problem', 1],
      ['row', 2],
    ]);
    expect(items[1]).toMatchObject({ values: { a: '2', b: 'ok' }, raw: '2,ok' });
  });
});

describe('stdin', () => {
  it('reads "-" from the given stdin stream as CSV, or as the declared format', async () => {
    const csv = await readAll(
      '-',
      {},
      { stdin: Readable.from([Buffer.from('a,b\n1,'), Buffer.from('2\n')]) },
    );
    expect(csv.source.info).toMatchObject({ path: '<stdin>', format: 'csv', rows: 1 });
    expect(csv.rows[0]).toMatchObject({ file: '<stdin>', row: 1, values: { a: '1', b: '2' } });

    const ndjson = await readAll(
      '-',
      { format: 'ndjson' },
      { stdin: Readable.from(['{"a":1}\n', '{"a":2}\n']) },
    );
    expect(ndjson.rows.map((row) => row.values)).toEqual([{ a: 1 }, { a: 2 }]);
  });
});

describe('missing inputs', () => {
  it('throws input_not_found for a missing file and input_unreadable for a directory', async () => {
    const missing = await readAll(`${files.dir}/nope.csv`).catch((caught: unknown) => caught);
    expect(isImportError(missing) && [missing.code, missing.context.file]).toEqual([
      'input_not_found',
      `${files.dir}/nope.csv`,
    ]);
    const directory = await readAll(files.dir, { format: 'csv' }).catch((caught: unknown) => caught);
    expect(isImportError(directory) && directory.code).toBe('input_unreadable');
  });
});
