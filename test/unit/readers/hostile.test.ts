import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { isImportError } from '../../../src/core/errors/index.js';
import { MAX_RECORD_CHARS } from '../../../src/readers/index.js';
import { readAll, tempFiles } from './read-all.js';

const files = tempFiles();
afterAll(() => files.cleanup());

const errorOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );
const MB = 1024 * 1024;

/** Writes `size` bytes of `byte` after `before` and before `after`, without holding them in memory. */
async function writeLong(
  name: string,
  before: string,
  byte: string,
  size: number,
  after: string,
): Promise<string> {
  const path = `${files.dir}/${name}`;
  const stream = createWriteStream(path);
  stream.write(before);
  const block = Buffer.alloc(MB, byte);
  for (let written = 0; written < size; written += MB) {
    if (!stream.write(block.subarray(0, Math.min(MB, size - written))))
      await new Promise<void>((resolve) => stream.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => stream.end(after, () => resolve()).once('error', reject));
  return path;
}

describe('hostile inputs end with problems or one clear ImportError', () => {
  it('an empty CSV file is an ImportError naming the file', async () => {
    const path = files.write('empty.csv', '');
    const error = await errorOf(readAll(path));
    expect(isImportError(error) && [error.code, error.context.file]).toEqual(['input_unreadable', path]);
    expect((error as Error).message).toBe(`${path} is empty; expected a header line.`);
  });

  it('a header-only CSV file has a header and no rows', async () => {
    const { source, items } = await readAll(files.write('header-only.csv', 'a,b,c\r\n'));
    expect(source.header).toEqual(['a', 'b', 'c']);
    expect(items).toEqual([]);
  });

  it('binary garbage is an ImportError naming the file and the byte of its first NUL', async () => {
    const garbage = randomBytes(200_000);
    garbage[100] = 0;
    for (let index = 0; index < 100; index++) if (garbage[index] === 0) garbage[index] = 1;
    const path = files.write('garbage.csv', garbage);
    const error = await errorOf(readAll(path));
    expect(isImportError(error) && error.code).toBe('input_unreadable');
    expect(isImportError(error) && error.context).toMatchObject({ file: path, byte: 100 });
    expect((error as Error).message).toContain('binary');
    // The same bytes as JSON or NDJSON fail the same way.
    expect(isImportError(await errorOf(readAll(files.write('garbage.json', garbage))))).toBe(true);
  });

  it('a line after the first 64 KB that is neither UTF-8 nor Windows-1252 is an invalid_encoding problem; the others are read', async () => {
    const filler = Array.from({ length: 3000 }, (_, index) => `${index},filler text for row ${index}`).join(
      '\n',
    );
    const bytes = Buffer.concat([
      Buffer.from(`id,name\n${filler}\n`),
      Buffer.from('9998,bad é '),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('\n9999,good é\n'),
    ]);
    expect(bytes.length).toBeGreaterThan(64 * 1024);
    const path = files.write('invalid-late.csv', bytes);
    const { rows, problems, source } = await readAll(path);
    expect(source.info.encoding).toBe('utf-8');
    expect(rows).toHaveLength(3001);
    expect(problems).toEqual([
      {
        kind: 'problem',
        file: path,
        row: 3001,
        line: 3002,
        code: 'invalid_encoding',
        message: `Row 3001 of ${path} holds bytes that are not valid utf-8.`,
        raw: '9998,bad é \uFFFD(\uFFFD',
      },
    ]);
    expect(rows.at(-1)).toMatchObject({ row: 3002, values: { id: '9999', name: 'good é' } });
  });

  it('invalid UTF-8 in a file declared UTF-8 is a row problem; undeclared, early invalid bytes mean windows-1252', async () => {
    const bytes = Buffer.concat([Buffer.from('n\nok\nbad'), Buffer.from([0xe9]), Buffer.from('\n')]);
    const declared = await readAll(files.write('declared-utf8.csv', bytes), { encoding: 'utf8' });
    expect(declared.rows.map((row) => row.values['n'])).toEqual(['ok']);
    expect(declared.problems).toMatchObject([{ row: 2, code: 'invalid_encoding', raw: 'bad\uFFFD' }]);
    const detected = await readAll(files.write('detected-1252.csv', bytes));
    expect(detected.source.info.encoding).toBe('windows-1252');
    expect(detected.rows.map((row) => row.values['n'])).toEqual(['ok', 'badé']);
  });

  it('a U+FFFD written in the file is text, not an encoding problem', async () => {
    const { rows, problems } = await readAll(files.write('fffd.csv', 'n\nx\uFFFDy\n'));
    expect(problems).toEqual([]);
    expect(rows[0]!.values['n']).toBe('x\uFFFDy');
  });

  it('invalid UTF-8 in an NDJSON line makes that line a problem', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"a":"ok"}\n{"a":"'),
      Buffer.from([0xff]),
      Buffer.from('"}\n{"a":"fine"}\n'),
    ]);
    const { items } = await readAll(files.write('invalid.ndjson', bytes), { encoding: 'utf-8' });
    expect(items.map((item) => [item.row, item.kind === 'problem' ? item.code : 'row'])).toEqual([
      [1, 'row'],
      [2, 'invalid_encoding'],
      [3, 'row'],
    ]);
  });

  it('a quoted field left open at the end of the file is a row_unparseable problem', async () => {
    const path = files.write('open-quote.csv', 'a,b\n1,2\n3,"never closed\nstill inside');
    const { items } = await readAll(path);
    expect(items.map((item) => [item.row, item.kind])).toEqual([
      [1, 'row'],
      [2, 'problem'],
    ]);
    expect(items[1]).toMatchObject({
      code: 'row_unparseable',
      raw: '3,"never closed\nstill inside',
      message: expect.stringContaining('Quote Not Closed'),
    });
  });

  it('reads a 5 MB single cell whole', async () => {
    const path = await writeLong('big-cell.csv', 'id,note\n1,"', 'x', 5 * MB, '"\n2,short\n');
    const { rows, problems } = await readAll(path);
    expect(problems).toEqual([]);
    expect(rows.map((row) => [row.row, (row.values['note'] as string).length])).toEqual([
      [1, 5 * MB],
      [2, 5],
    ]);
  });

  it('a 50 MB line without a newline stops a CSV read with an ImportError naming the row', async () => {
    const path = await writeLong('long-line.csv', 'a,b\n1,2\n', 'z', 50 * MB, '');
    const seen: number[] = [];
    const error = await errorOf(
      (async () => {
        const { openSource } = await import('../../../src/readers/index.js');
        const source = await openSource(path, {});
        for await (const item of source.items) seen.push(item.row);
      })(),
    );
    expect(seen).toEqual([1]);
    expect(isImportError(error) && [error.code, error.context]).toEqual([
      'input_unreadable',
      { file: path, row: 2, line: 3 },
    ]);
    expect((error as Error).message).toContain(`longer than ${MAX_RECORD_CHARS} characters`);
  });

  it('a 50 MB NDJSON line is a problem, dropped as it streams, and the next line is read', async () => {
    const path = await writeLong('long-line.ndjson', '{"a":1}\n{"a":"', 'z', 50 * MB, '"}\n{"a":3}\n');
    const { items } = await readAll(path);
    expect(items.map((item) => [item.row, item.kind])).toEqual([
      [1, 'row'],
      [2, 'problem'],
      [3, 'row'],
    ]);
    expect(items[1]).toMatchObject({
      code: 'row_unparseable',
      raw: '',
      message: expect.stringContaining('longer than'),
    });
  });

  it('a JSON element with a 20 MB string is a problem; the next element is read', async () => {
    const path = await writeLong('big-element.json', '[{"a":"', 'q', 20 * MB, '"}, {"a":2}]');
    const { items } = await readAll(path);
    expect(items.map((item) => [item.row, item.kind])).toEqual([
      [1, 'problem'],
      [2, 'row'],
    ]);
    expect(items[0]).toMatchObject({
      message: expect.stringContaining(`larger than ${MAX_RECORD_CHARS} characters`),
    });
  });

  it('a NUL byte past the first 64 KB makes that row a problem', async () => {
    const filler = 'n\n' + 'row of text\n'.repeat(7000);
    const path = files.write('late-nul.csv', `${filler}bad\u0000row\nlast\n`);
    const { rows, problems } = await readAll(path);
    expect(problems).toMatchObject([
      { row: 7001, code: 'row_unparseable', message: expect.stringContaining('NUL') },
    ]);
    expect(rows.at(-1)).toMatchObject({ row: 7002, values: { n: 'last' } });
  });

  it('a NUL byte at the start is an ImportError with its line', async () => {
    const path = files.write('early-nul.csv', 'a,b\n1,2\n3,\u0000\n');
    const error = await errorOf(readAll(path));
    expect(isImportError(error) && error.context).toEqual({ file: path, line: 3, byte: 10 });
  });

  it('reads 100,000 columns', async () => {
    const header = Array.from({ length: 100_000 }, (_, index) => `c${index}`).join(',');
    const row = Array.from({ length: 100_000 }, (_, index) => String(index % 10)).join(',');
    const { source, rows } = await readAll(files.write('wide.csv', `${header}\n${row}\n${row}\n`));
    expect(source.header).toHaveLength(100_000);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.values['c99999']).toBe('9');
  });

  it('gives up a read that waits for data (idle stdin) as soon as the signal is aborted', async () => {
    const { PassThrough } = await import('node:stream');
    const { openSource } = await import('../../../src/readers/index.js');
    const controller = new AbortController();
    const idle = new PassThrough();
    setTimeout(() => controller.abort(), 50);
    const error = await errorOf(openSource('-', {}, { signal: controller.signal, stdin: idle }));
    expect(isImportError(error) && error.code).toBe('interrupted');
    expect(idle.destroyed).toBe(true);
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    const path = files.write('abort.csv', 'a\n' + '1\n'.repeat(100_000));
    const { openSource } = await import('../../../src/readers/index.js');
    const source = await openSource(path, {}, { signal: controller.signal });
    let count = 0;
    const error = await errorOf(
      (async () => {
        for await (const _item of source.items) {
          if (++count === 10) controller.abort();
        }
      })(),
    );
    expect(isImportError(error) && error.code).toBe('interrupted');
    expect(count).toBeLessThan(100_000);
  });
});
