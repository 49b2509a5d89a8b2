import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import {
  LineTranscoder,
  MAX_LINE_CARRY,
  labelOfPrefix,
  lineKind,
} from '../../../src/readers/line-transcoder.js';
import { readAll, tempFiles } from './read-all.js';

const files = tempFiles();
afterAll(() => files.cleanup());

const cp1252 = (text: string): Buffer => iconv.encode(text, 'windows-1252');
const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

/** Runs bytes through a transcoder in chunks of `size`; the text out and the notes by line. */
const decodeIn = (bytes: Buffer, size: number, label?: string) => {
  const transcoder = new LineTranscoder(label);
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(transcoder.write(bytes.subarray(at, at + size)));
  out.push(transcoder.end());
  const text = Buffer.concat(out).toString('utf8');
  const lines = text.split(/\r\n|\r|\n/).length;
  const notes: Array<[number, string]> = [];
  for (let line = 1; line <= lines; line++) {
    const other = transcoder.otherEncodingIn(line, line);
    if (other) notes.push([line, other]);
  }
  return { text, notes, encoding: transcoder.encoding, invalid: transcoder.invalidSeen };
};

describe('lineKind', () => {
  it('tells ASCII, UTF-8, Windows-1252 and broken lines apart', () => {
    expect(lineKind(utf8('plain'))).toBe('ascii');
    expect(lineKind(utf8('José García'))).toBe('utf-8');
    expect(lineKind(cp1252('José García'))).toBe('windows-1252');
    expect(lineKind(cp1252('JOÃO “quoted” – 5 €'))).toBe('windows-1252');
    // UTF-8 with a bad byte: reading it as Windows-1252 would garble the good "é".
    expect(lineKind(Buffer.concat([utf8('José '), Buffer.from([0xff])]))).toBe('broken');
    // A byte Windows-1252 leaves undefined, a control character: not text in it.
    expect(lineKind(Buffer.from([0x41, 0x81]))).toBe('broken');
    expect(lineKind(Buffer.from([0xe9, 0x01]))).toBe('broken');
  });
});

describe('LineTranscoder', () => {
  it('reads UTF-8 rows as UTF-8 and the Windows-1252 rows after them as that, noting those lines', () => {
    const bytes = Buffer.concat([
      utf8('name\nJosé García\nZoë Müller\n'),
      cp1252('Renée Côté\nFrançois Hébert\n'),
      utf8('Łukasz Żak\n'),
    ]);
    for (const size of [1, 3, 7, 64 * 1024]) {
      const { text, notes, encoding, invalid } = decodeIn(bytes, size);
      expect(text).toBe('name\nJosé García\nZoë Müller\nRenée Côté\nFrançois Hébert\nŁukasz Żak\n');
      expect(notes).toEqual([
        [4, 'windows-1252'],
        [5, 'windows-1252'],
      ]);
      expect(encoding).toBe('utf-8');
      expect(invalid).toBe(false);
    }
  });

  it('a file of Windows-1252 (all ASCII at first) is read as that, no line noted', () => {
    const bytes = Buffer.concat([utf8('a\nplain\n'), cp1252('Renée\r\nCôté\r\n')]);
    for (const size of [1, 5, 1000]) {
      const { text, notes, encoding } = decodeIn(bytes, size);
      expect(text).toBe('a\nplain\nRenée\r\nCôté\r\n');
      expect(encoding).toBe('windows-1252');
      // The first line that is not ASCII comes before anything told the encoding: it is noted.
      expect(notes).toEqual([[3, 'windows-1252']]);
    }
  });

  it('a UTF-8 line in a file of Windows-1252 is read as UTF-8 and noted', () => {
    const bytes = Buffer.concat([cp1252('Renée\nCôté\n'), utf8('José\n'), cp1252('Hébert\n')]);
    const { text, notes, encoding } = decodeIn(bytes, 4, 'windows-1252');
    expect(text).toBe('Renée\nCôté\nJosé\nHébert\n');
    expect(encoding).toBe('windows-1252');
    expect(notes).toEqual([[3, 'utf-8']]);
  });

  it('a line valid in neither keeps its bad bytes marked; its neighbours read right', () => {
    const bytes = Buffer.concat([utf8('José\nbad é '), Buffer.from([0xff]), utf8('\nZoë\n')]);
    const { text, notes, invalid } = decodeIn(bytes, 2, 'utf-8');
    expect(text).toBe('José\nbad é \uFDD0\nZoë\n');
    expect(notes).toEqual([]);
    expect(invalid).toBe(true);
  });

  it('numbers lines across CR LF split between chunks and old Mac CR breaks', () => {
    const bytes = Buffer.concat([utf8('é\r\n\r\nx\ry\r'), cp1252('é\n')]);
    for (const size of [1, 2, 3]) {
      expect(decodeIn(bytes, size).notes).toEqual([[5, 'windows-1252']]);
    }
  });

  it('decides a line longer than its carry in pieces, none split inside a character', () => {
    const long = 'é'.repeat(MAX_LINE_CARRY);
    const bytes = Buffer.concat([utf8(`${long}\n`), cp1252('Côté\n')]);
    const { text, notes } = decodeIn(bytes, 64 * 1024 + 1);
    expect(text).toBe(`${long}\nCôté\n`);
    expect(notes).toEqual([[2, 'windows-1252']]);
  });
});

describe('labelOfPrefix', () => {
  it('is the majority of the lines that are not ASCII, a tie to Windows-1252, none when all ASCII', () => {
    expect(labelOfPrefix(utf8('a\nb\n'), true)).toBeUndefined();
    expect(labelOfPrefix(Buffer.concat([utf8('é\nü\n'), cp1252('é\n')]), true)).toBe('utf-8');
    expect(labelOfPrefix(Buffer.concat([utf8('é\n'), cp1252('é\n')]), true)).toBe('windows-1252');
    // The last line of a prefix that is not the whole file may be cut: it does not count.
    expect(labelOfPrefix(Buffer.concat([utf8('é\n'), cp1252('é')]), false)).toBe('utf-8');
  });
});

describe('reading a file of mixed encodings', () => {
  it('UTF-8 rows and Windows-1252 rows each read right; the Windows-1252 rows warned about by row', async () => {
    const bytes = Buffer.concat([
      utf8('full_name,email\nJosé García,jose@example.com\n'),
      cp1252('Renée Côté,renee@example.com\n'),
      utf8('Zoë Müller,zoe@example.com\n'),
    ]);
    const path = files.write('mixed.csv', bytes);
    const { rows, problems, source } = await readAll(path);
    expect(problems).toEqual([]);
    expect(source.info.encoding).toBe('utf-8');
    expect(rows.map((row) => row.values['full_name'])).toEqual(['José García', 'Renée Côté', 'Zoë Müller']);
    expect(rows.map((row) => row.warnings?.map((w) => w.code))).toEqual([
      undefined,
      ['mixed_encoding'],
      undefined,
    ]);
    expect(rows[1]!.warnings![0]!.message).toBe(
      `Row 2 of ${path} (line 3) is not valid utf-8, the encoding of the rest of the file; it was read as windows-1252.`,
    );
  });

  it('one stray byte early in a UTF-8 file leaves the other 200 names UTF-8', async () => {
    const names = Array.from({ length: 200 }, (_, i) => `José Núñez ${i},n${i}@example.com`);
    const bytes = Buffer.concat([
      utf8('full_name,email\n'),
      cp1252('Ren\u00e9e,renee@example.com\n'),
      utf8(`${names.join('\n')}\n`),
    ]);
    const { rows, problems, source } = await readAll(files.write('stray.csv', bytes));
    expect(problems).toEqual([]);
    expect(source.info.encoding).toBe('utf-8');
    expect(rows.slice(1).every((row, i) => row.values['full_name'] === `José Núñez ${i}`)).toBe(true);
    expect(rows[0]!.values['full_name']).toBe('Renée');
    expect(rows.filter((row) => row.warnings).map((row) => row.row)).toEqual([1]);
  });

  it('the row warnings reach NDJSON, JSON arrays and vCards too', async () => {
    // Two UTF-8 lines before: the file is UTF-8 by their majority.
    const ndjson = Buffer.concat([utf8('{"n":"José"}\n{"n":"Zoë"}\n'), cp1252('{"n":"Côté"}\n')]);
    const json = Buffer.concat([utf8('[\n{"n":"José",\n"m":"Zoë"},\n'), cp1252('{\n"n":"Côté"}\n]\n')]);
    const vcard = Buffer.concat([
      utf8('BEGIN:VCARD\r\nVERSION:3.0\r\nFN:José\r\nNOTE:Zoë\r\nEND:VCARD\r\n'),
      utf8('BEGIN:VCARD\r\nVERSION:3.0\r\n'),
      cp1252('FN:Côté\r\n'),
      utf8('END:VCARD\r\n'),
    ]);
    for (const [name, bytes] of [
      ['m.ndjson', ndjson],
      ['m.json', json],
      ['m.vcf', vcard],
    ] as const) {
      const { rows } = await readAll(files.write(name, bytes));
      expect(rows.map((row) => row.warnings?.length ?? 0).slice(-2)).toEqual([0, 1]);
      expect(JSON.stringify(rows.at(-1)!.values)).toContain('Côté');
    }
  });
});
