import { afterAll, describe, expect, it } from 'vitest';
import { readAll, tempFiles } from './read-all.js';

const files = tempFiles();
afterAll(() => files.cleanup());

/** UTF-16LE bytes of `text` with a BOM, each UTF-16 unit as written (lone halves included). */
const utf16le = (text: string): Buffer => {
  const bytes = Buffer.alloc(2 + text.length * 2);
  bytes.writeUInt16LE(0xfeff, 0);
  for (let i = 0; i < text.length; i++) bytes.writeUInt16LE(text.charCodeAt(i), 2 + i * 2);
  return bytes;
};

describe('half of a UTF-16 surrogate pair standing alone', () => {
  it('in a JSON string escape: replaced by U+FFFD, a warning naming the element, line and field', async () => {
    const path = files.write(
      'lone.json',
      '[\n{"name":"Ann\\ud800","note":{"text":"x\\udc00"}},\n{"name":"Bob \\ud83d\\ude00"}\n]',
    );
    const { rows, problems } = await readAll(path);
    expect(problems).toEqual([]);
    expect(rows[0]!.values).toEqual({ name: 'Ann\uFFFD', note: { text: 'x\uFFFD' } });
    expect(rows[0]!.warnings).toEqual([
      {
        code: 'lone_surrogate',
        field: 'name',
        message: `Element 1 of ${path} (line 2): the value of "name" holds half of a UTF-16 surrogate pair, which is no character; it was replaced by U+FFFD.`,
      },
      expect.objectContaining({ code: 'lone_surrogate', field: 'note.text' }),
    ]);
    // A whole pair is a character (an emoji here): no warning.
    expect(rows[1]!.values).toEqual({ name: 'Bob 😀' });
    expect(rows[1]!.warnings).toBeUndefined();
  });

  it('in an NDJSON line the same', async () => {
    const { rows } = await readAll(
      files.write('lone.ndjson', '{"email":"a@example.com","name":"\\udfff"}\n'),
    );
    expect(rows[0]!.values).toEqual({ email: 'a@example.com', name: '\uFFFD' });
    expect(rows[0]!.warnings).toMatchObject([{ code: 'lone_surrogate', field: 'name' }]);
  });

  it('decoded from a UTF-16 CSV: the cell reads U+FFFD and the row is warned about by column', async () => {
    const path = files.write(
      'lone16.csv',
      utf16le('full_name,email\r\nAnn\uD800,ann@example.com\r\nU+FFFD \uFFFD,ok@example.com\r\n'),
    );
    const { rows, problems } = await readAll(path);
    expect(problems).toEqual([]);
    expect(rows.map((row) => row.values['full_name'])).toEqual(['Ann\uFFFD', 'U+FFFD \uFFFD']);
    expect(rows[0]!.raw).toBe('Ann\uFFFD,ann@example.com');
    expect(rows[0]!.warnings).toMatchObject([{ code: 'lone_surrogate', field: 'full_name' }]);
    // A U+FFFD written in the file is text.
    expect(rows[1]!.warnings).toBeUndefined();
  });
});
