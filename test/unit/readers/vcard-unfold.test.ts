import { afterAll, describe, expect, it } from 'vitest';
import { splitCards } from '../../../src/readers/vcard-cards.js';
import { decodeQuotedPrintable } from '../../../src/readers/vcard-value.js';
import { readAll, tempFiles } from './read-all.js';

const files = tempFiles();
afterAll(() => files.cleanup());

async function* chunksOf(text: string, size = 64 * 1024): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** A vCard 2.1 quoted-printable value of `lines` physical lines, each ending in a soft break. */
const softBrokenValue = (lines: number): { written: string; decoded: string } => {
  const line = '=4A=6F=73=C3=A9 Garc=C3=ADa '; // "José García "
  return {
    written: `${Array.from({ length: lines }, () => `${line}=`).join('\r\n')}\r\nend\r\n`,
    decoded: `${'José García '.repeat(lines)}end`,
  };
};

describe('vCard 2.1 quoted-printable unfolding', () => {
  // 80,000 soft line breaks in one value (2.7 MB): joined into one growing string, checked for its
  // `=` at every line, this takes hours; held as pieces it is one pass.
  it('unfolds a value of 80,000 soft-broken lines into one content line, linear in its size', async () => {
    const { written } = softBrokenValue(80_000);
    const text = `BEGIN:VCARD\r\nVERSION:2.1\r\nNOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:${written}END:VCARD\r\n`;
    const cards = [];
    for await (const card of splitCards(chunksOf(text), {
      maxCardChars: 16 * 1024 * 1024,
      invalidSeen: () => false,
      encoding: 'utf-8',
    }))
      cards.push(card);
    expect(cards).toHaveLength(1);
    const note = cards[0]!.lines.find((line) => line.text.startsWith('NOTE'))!;
    expect(note.line).toBe(3);
    expect(note.text.length).toBe(
      'NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:'.length +
        80_000 * '=4A=6F=73=C3=A9 Garc=C3=ADa '.length +
        3,
    );
    expect(note.text.endsWith('=4A=6F=73=C3=A9 Garc=C3=ADa end')).toBe(true);
  });

  it('decodes a multi-megabyte quoted-printable value in one pass', () => {
    const escaped = '=C3=A9'.repeat(1_000_000);
    const decoded = decodeQuotedPrintable(`a${escaped}b=3D=`, 'utf-8');
    expect(decoded).toEqual({ ok: true, text: `a${'é'.repeat(1_000_000)}b=` });
    expect(decodeQuotedPrintable('x=zz=4', 'utf-8')).toEqual({ ok: true, text: 'x=zz=4' });
  });

  it('reads a card with a multi-megabyte quoted-printable note and photo; the values are right', async () => {
    const { written, decoded } = softBrokenValue(30_000);
    const photo = Array.from({ length: 20_000 }, () => '=FF=D8=FF=E0=00=10=4A=46=49=46=').join('\r\n');
    const path = files.write(
      'big.vcf',
      `BEGIN:VCARD\r\nVERSION:2.1\r\nN:García;José\r\nEMAIL:jose@example.com\r\n` +
        `PHOTO;JPEG;ENCODING=QUOTED-PRINTABLE:${photo}\r\n\r\n` +
        `NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:${written}END:VCARD\r\n`,
    );
    const { rows, problems, source } = await readAll(path);
    expect(problems).toEqual([]);
    expect(source.info.ignored).toEqual({ PHOTO: 1 });
    const values = rows[0]!.values;
    expect(values).toMatchObject({ 'N.family': 'García', 'N.given': 'José' });
    expect(String(values['NOTE']).slice(0, 40)).toBe(decoded.slice(0, 40));
    expect(values['NOTE']).toBe(decoded);
  });
});
