import { afterAll, describe, expect, it } from 'vitest';
import { isImportError } from '../../../src/core/errors/index.js';
import { MAX_JSON_DEPTH } from '../../../src/readers/index.js';
import { readAll, tempFiles } from './read-all.js';

const files = tempFiles();
afterAll(() => files.cleanup());

const errorOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('JSON arrays', () => {
  it('yields each object with its 1-based index as row and its JSON text as raw; nested values stay as parsed', async () => {
    const path = files.write(
      'contacts.json',
      ` \n[\n {"first_name": "Ada", "contact_emails": [{"email": "ada@example.com", "ranking": 1}], "vip": true, "n": 1.5e2, "x": null},\n {"first_name": "Alan"}\n]\n`,
    );
    const { items, source } = await readAll(path);
    expect(source.info).toEqual({ path, format: 'json', encoding: 'utf-8', delimiter: null, rows: 2 });
    expect(source.header).toBeUndefined();
    expect(items).toEqual([
      {
        kind: 'row',
        file: path,
        row: 1,
        line: 3,
        values: {
          first_name: 'Ada',
          contact_emails: [{ email: 'ada@example.com', ranking: 1 }],
          vip: true,
          n: 150,
          x: null,
        },
        raw: '{"first_name":"Ada","contact_emails":[{"email":"ada@example.com","ranking":1}],"vip":true,"n":150,"x":null}',
      },
      {
        kind: 'row',
        file: path,
        row: 2,
        line: 4,
        values: { first_name: 'Alan' },
        raw: '{"first_name":"Alan"}',
      },
    ]);
  });

  it('reads an empty array as no rows, and unicode escapes and BOM-prefixed UTF-16 files', async () => {
    expect((await readAll(files.write('empty-array.json', '[]'))).items).toEqual([]);
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('[{"name":"caf\\u00e9 Zürich"}]', 'utf16le'),
    ]);
    const { rows, source } = await readAll(files.write('utf16.json', utf16));
    expect(source.info.encoding).toBe('utf-16le');
    expect(rows[0]!.values).toEqual({ name: 'café Zürich' });
  });

  it('makes an element that is not an object a row_unparseable problem and reads on', async () => {
    const path = files.write('mixed.json', '[{"a":1}, 2, "s", null, [1], {"a":2}]');
    const { items } = await readAll(path);
    expect(items.map((item) => [item.row, item.kind, item.kind === 'problem' ? item.code : ''])).toEqual([
      [1, 'row', ''],
      [2, 'problem', 'row_unparseable'],
      [3, 'problem', 'row_unparseable'],
      [4, 'problem', 'row_unparseable'],
      [5, 'problem', 'row_unparseable'],
      [6, 'row', ''],
    ]);
    expect(items[1]).toMatchObject({
      message: `Element 2 of ${path} is a number; expected an object.`,
      raw: '2',
    });
    expect(items[4]).toMatchObject({
      message: `Element 5 of ${path} is an array; expected an object.`,
      raw: '[1]',
    });
  });

  it('refuses a top level that is not an array, saying what it got', async () => {
    for (const [name, content, got] of [
      ['object.json', '{"a": 1}', 'an object'],
      ['string.json', '"text"', 'a string'],
      ['number.json', '  42', 'a number'],
      ['csv.json', 'a,b\n1,2', 'does not start JSON'],
      ['empty.json', '', 'the file is empty'],
    ] as const) {
      const error = await errorOf(readAll(files.write(name, content)));
      expect(isImportError(error) && error.code).toBe('input_unreadable');
      expect((error as Error).message).toContain(got);
      expect((error as Error).message).toContain('expected a JSON array of objects');
    }
  });

  it('stops at a syntax error with an ImportError naming the element (or one shortly before it), after the good ones', async () => {
    const good = Array.from({ length: 2000 }, (_, index) =>
      JSON.stringify({ id: index + 1, note: 'x'.repeat(80) }),
    );
    const path = files.write('broken.json', `[${good.join(',')},{"a": tru}]`);
    const source = await import('../../../src/readers/index.js').then(({ openSource }) =>
      openSource(path, {}),
    );
    const seen: number[] = [];
    const error = await errorOf(
      (async () => {
        for await (const item of source.items) seen.push(item.row);
      })(),
    );
    expect(seen.length).toBeGreaterThan(1900);
    expect(seen).toEqual(seen.map((_, index) => index + 1));
    expect(isImportError(error) && error.code).toBe('input_unreadable');
    const row = isImportError(error) ? Number(error.context.row) : 0;
    expect(row).toBeGreaterThan(1900);
    expect(row).toBeLessThanOrEqual(2001);
    expect((error as Error).message).toContain(`is not valid JSON at or shortly after element ${row}`);
  });

  it('refuses a truncated array and trailing garbage', async () => {
    const truncated = await errorOf(readAll(files.write('truncated.json', '[{"a":1},{"b":')));
    expect(isImportError(truncated) && truncated.code).toBe('input_unreadable');
    const trailing = await errorOf(readAll(files.write('trailing.json', `[{"a":1}]${' '.repeat(5000)}x`)));
    expect((trailing as Error).message).toContain('after its array');
  });

  it('drops an element nested deeper than the limit as a problem and reads the next one', async () => {
    const deep = '['.repeat(MAX_JSON_DEPTH + 5) + ']'.repeat(MAX_JSON_DEPTH + 5);
    const path = files.write(
      'deep.json',
      `[{"a":${deep}}, {"b":1}, {"c":${'['.repeat(100_000)}${']'.repeat(100_000)}}]`,
    );
    const { items } = await readAll(path);
    expect(items.map((item) => [item.row, item.kind])).toEqual([
      [1, 'problem'],
      [2, 'row'],
      [3, 'problem'],
    ]);
    expect(items[0]).toMatchObject({
      code: 'row_unparseable',
      message: expect.stringContaining(`nested deeper than ${MAX_JSON_DEPTH} levels`),
    });
  });

  it('keeps JSON keys named __proto__ as own values', async () => {
    const { rows } = await readAll(files.write('proto.json', '[{"__proto__": {"x": 1}, "a": 2}]'));
    expect(Object.keys(rows[0]!.values)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(rows[0]!.values)).toBe(Object.prototype);
  });
});

describe('NDJSON', () => {
  it('yields one row per non-blank line, raw the line without its line break', async () => {
    const path = files.write('people.ndjson', '{"a":1}\r\n\n   \n{"a":"é"}\n{"a":3}');
    const { items, source } = await readAll(path);
    expect(source.info).toMatchObject({ format: 'ndjson', rows: 3, delimiter: null });
    expect(items).toEqual([
      { kind: 'row', file: path, row: 1, line: 1, values: { a: 1 }, raw: '{"a":1}' },
      { kind: 'row', file: path, row: 2, line: 4, values: { a: 'é' }, raw: '{"a":"é"}' },
      { kind: 'row', file: path, row: 3, line: 5, values: { a: 3 }, raw: '{"a":3}' },
    ]);
  });

  it('makes a bad line a problem and reads the others', async () => {
    const path = files.write('bad-line.jsonl', '{"a":1}\n{"a":\n[1,2]\n"x"\n{"a":5}\n');
    const { items } = await readAll(path);
    expect(items.map((item) => [item.row, item.kind === 'problem' ? item.code : item.values])).toEqual([
      [1, { a: 1 }],
      [2, 'row_unparseable'],
      [3, 'row_unparseable'],
      [4, 'row_unparseable'],
      [5, { a: 5 }],
    ]);
    expect(items[1]).toMatchObject({
      raw: '{"a":',
      message: expect.stringContaining(`Line 2 of ${path} is not valid JSON`),
    });
    expect(items[2]).toMatchObject({ message: `Line 3 of ${path} is an array; expected a JSON object.` });
  });

  it('makes a too-deep line a problem', async () => {
    const deep = `{"a":${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}}`;
    const { items } = await readAll(files.write('deep.ndjson', `${deep}\n{"ok":true}\n`));
    expect(items[0]).toMatchObject({
      kind: 'problem',
      row: 1,
      message: expect.stringContaining('nested deeper'),
    });
    expect(items[1]).toMatchObject({ kind: 'row', row: 2, values: { ok: true } });
  });

  it('refuses an input without any line', async () => {
    const error = await errorOf(readAll(files.write('blank.ndjson', '\n \n')));
    expect(isImportError(error) && error.code).toBe('input_unreadable');
  });
});
