import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { Dialect, SourceItem } from '../../../src/readers/types.js';
import { readAll, tempFiles } from './read-all.js';

const files = tempFiles();
afterAll(() => files.cleanup());

/** What a test compares: kind (or problem code), row, line, and the values or raw text. */
const summary = (items: SourceItem[]): Array<[string, number, number, unknown]> =>
  items.map((item) =>
    item.kind === 'row'
      ? ['row', item.row, item.line, Object.values(item.values).join('|')]
      : [item.code, item.row, item.line, item.raw],
  );

/** Reads `text` from a stream cut into `size`-byte chunks: records and failures across chunk edges. */
const readInChunks = async (text: string, size: number, dialect: Dialect = {}) => {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return readAll('-', dialect, { stdin: Readable.from(chunks) });
};

const goodRows = (count: number, from = 1): string =>
  Array.from({ length: count }, (_, i) => `Person ${from + i},p${from + i}@example.com,Acme\n`).join('');

describe('a malformed CSV record costs that record only', () => {
  it('a stray quote: read 1,002, one problem, 1,001 rows, every line right', async () => {
    const text = `name,email,company\nAnn Lee,ann@example.com,Acme\nBad "Quote" x,"bad"x@example.com\n${goodRows(1000)}`;
    const { items, rows, problems } = await readAll(files.write('stray.csv', text));
    expect(items).toHaveLength(1002);
    expect(rows).toHaveLength(1001);
    expect(problems).toEqual([
      expect.objectContaining({
        code: 'row_unparseable',
        row: 2,
        line: 3,
        raw: 'Bad "Quote" x,"bad"x@example.com',
        message: expect.stringMatching(
          /^Row 2 of .*stray\.csv \(line 3\) cannot be parsed: Invalid Opening Quote.*; reading resumed at line 4\.$/,
        ),
      }),
    ]);
    expect(rows.at(-1)).toMatchObject({ row: 1002, line: 1003, values: { name: 'Person 1000' } });
    expect(rows.map((row) => row.line - row.row)).toEqual(rows.map(() => 1));
  });

  it('a space after a closing quote does not swallow the next row that quotes a field', async () => {
    const text =
      'name,email,company\nJane Doe,"jane@example.com" ,Acme\n"Doe, John",john@example.com,"Acme, Inc."\nAl,"al@example.com",X\n';
    const { items } = await readAll(files.write('space-after-quote.csv', text));
    expect(summary(items)).toEqual([
      ['row_unparseable', 1, 2, 'Jane Doe,"jane@example.com" ,Acme'],
      ['row', 2, 3, 'Doe, John|john@example.com|Acme, Inc.'],
      ['row', 3, 4, 'Al|al@example.com|X'],
    ]);
  });

  it('a quote left open gives up lines until one starts a record of the header width', async () => {
    const text = `a,b,c\n1,"open,3\nfragment\n${goodRows(3)}`;
    const { items } = await readAll(files.write('open-mid.csv', text));
    expect(summary(items)).toEqual([
      ['row_unparseable', 1, 2, '1,"open,3\nfragment'],
      ['row', 2, 4, 'Person 1|p1@example.com|Acme'],
      ['row', 3, 5, 'Person 2|p2@example.com|Acme'],
      ['row', 4, 6, 'Person 3|p3@example.com|Acme'],
    ]);
  });

  it('a quote left open before rows that quote fields swallows none of them', async () => {
    const text = 'a,b,c\n1,"open,3\n"x",y,z\n4,"five",6\n"7",8,"9"\n';
    const { items } = await readAll(files.write('open-then-quotes.csv', text));
    expect(summary(items)).toEqual([
      ['row_unparseable', 1, 2, '1,"open,3'],
      ['row', 2, 3, 'x|y|z'],
      ['row', 3, 4, '4|five|6'],
      ['row', 4, 5, '7|8|9'],
    ]);
  });

  it('a record whose quotes pair up wrongly over several lines is one problem, not a ragged row of swallowed lines', async () => {
    // The quote opened in row 1 closes in row 3: csv-parse reads one record of 4 fields over 3 lines.
    const text = 'a,b,c\n1,"two,3\n4,5,6\n7,8",9,10\n11,12,13\n';
    const { items } = await readAll(files.write('pairs-wrong.csv', text));
    expect(summary(items)).toEqual([
      ['row_unparseable', 1, 2, '1,"two,3'],
      ['row', 2, 3, '4|5|6'],
      ['row_unparseable', 3, 4, '7,8",9,10'],
      ['row', 4, 5, '11|12|13'],
    ]);
    expect(items[0]).toMatchObject({
      message: expect.stringContaining('it reads as 4 field(s) over 3 lines; reading resumed at line 3'),
    });
  });

  it('a multi-line record of the header width is taken as written: nothing tells it from a quoted cell', async () => {
    const text = 'a,b,c\n1,"two,3\n4,5,6\n7,8",9\n10,11,12\n';
    const { items } = await readAll(files.write('pairs-wrong-same-width.csv', text));
    expect(summary(items)).toEqual([
      ['row', 1, 2, '1|two,3\n4,5,6\n7,8|9'],
      ['row', 2, 5, '10|11|12'],
    ]);
  });

  it('genuine multi-line cells are read whole, and the next record gets its own line', async () => {
    const text = 'a,b\r\n1,"line one\r\nline two\r\n\r\nline four"\r\n\r\n2,"x"\r\n3,y';
    const { items } = await readAll(files.write('multi-line.csv', text));
    expect(summary(items)).toEqual([
      ['row', 1, 2, '1|line one\r\nline two\r\n\r\nline four'],
      ['row', 2, 7, '2|x'],
      ['row', 3, 8, '3|y'],
    ]);
  });

  it('a malformed last record, and one left open at the end', async () => {
    const last = await readAll(files.write('bad-last.csv', 'a,b\n1,2\n3,"x"y\n'));
    expect(summary(last.items)).toEqual([
      ['row', 1, 2, '1|2'],
      ['row_unparseable', 2, 3, '3,"x"y'],
    ]);
    expect(last.problems[0]!.message).not.toContain('resumed');
    const open = await readAll(files.write('open-end.csv', 'a,b\n1,2\n3,"never closed\nstill inside\n'));
    expect(summary(open.items)).toEqual([
      ['row', 1, 2, '1|2'],
      ['row_unparseable', 2, 3, '3,"never closed\nstill inside'],
    ]);
  });

  it('TSV with a quote opened in a field does not swallow rows up to a later quote', async () => {
    const text = 'a\tb\tc\n1\t"open\t3\n4\t5\t6\n7\t8\tsay "hi"\n10\t11\t12\n';
    const { items } = await readAll(files.write('open.tsv', text));
    expect(summary(items)).toEqual([
      ['row_unparseable', 1, 2, '1\t"open\t3'],
      ['row', 2, 3, '4|5|6'],
      ['row', 3, 4, '7|8|say "hi"'],
      ['row', 4, 5, '10|11|12'],
    ]);
  });

  it('numbers lines after a preamble and blank lines', async () => {
    const text =
      'Exported by X\r\nOn a day\r\n\r\nname,email\r\n\r\nAnn,a@x.org\r\n\r\n\r\nBad,"q"x\r\nBob,b@x.org\r\n';
    const { items } = await readAll(files.write('preamble.csv', text), { skipLines: 2 });
    expect(summary(items)).toEqual([
      ['row', 1, 6, 'Ann|a@x.org'],
      ['row_unparseable', 2, 9, 'Bad,"q"x'],
      ['row', 3, 10, 'Bob|b@x.org'],
    ]);
  });

  it('a long run of blank lines is counted without being held', async () => {
    const blank = '\n'.repeat(300_000);
    const { items } = await readAll(files.write('blank-run.csv', `a,b\n${blank}1,2\n`));
    expect(summary(items)).toEqual([['row', 1, 300_002, '1|2']]);
  });

  const cases: Record<string, string> = {
    stray: `name,email,company\nAnn,a@x.org,A\nBad "Quote" x,"bad"x@example.com\n${goodRows(40)}`,
    openMid: `a,b,c\n1,"open,3\nfragment\nmore "frag\n${goodRows(20)}2,"multi\r\nline",x\r\n`,
    pairsWrong: 'a,b,c\n1,"two,3\n4,5,6\n7,8",9,10\n11,12,13\n"q""uoted",x,"y\ny"\n',
    crOnly: 'a,b\r1,"x\ry"\r2,"b"ad\r3,c\r',
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`reads ${name} the same whatever the chunk size`, async () => {
      const whole = summary((await readInChunks(text, 1 << 20)).items);
      expect(whole.length).toBeGreaterThanOrEqual(3);
      for (const size of [1, 2, 3, 5, 7, 16, 61]) {
        expect(summary((await readInChunks(text, size)).items), `chunks of ${size}`).toEqual(whole);
      }
    });
  }
});

describe('malformed CSV, fuzzed', () => {
  it('random text of quotes, commas and line breaks reads the same in any chunking, every line accounted for', async () => {
    let seed = 16_3;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const alphabet = ['a', 'b', ',', ',', '"', '\n', '\n', '\r\n', '\r', ' '];
    for (let round = 0; round < 80; round++) {
      let text = 'h1,h2,h3\n';
      for (let i = 0, length = 20 + random(120); i < length; i++) text += alphabet[random(alphabet.length)];
      const whole = await readInChunks(text, 1 << 20);
      const items = summary(whole.items);
      for (const size of [1, 1 + random(9), 1 + random(40)]) {
        expect(
          summary((await readInChunks(text, size)).items),
          `${JSON.stringify(text)} in chunks of ${size}`,
        ).toEqual(items);
      }
      // Rows count up by one; lines never go back.
      items.forEach(([, row, line], i) => {
        expect(row).toBe(i + 1);
        if (i > 0) expect(line).toBeGreaterThan(items[i - 1]![2]);
      });
    }
  });
});
