import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { isImportError } from '../../../src/core/errors/index.js';
import { splitCards } from '../../../src/readers/vcard-cards.js';
import { detectFormat } from '../../../src/readers/index.js';
import { readAll, tempFiles } from './read-all.js';

const files = tempFiles();
afterAll(() => files.cleanup());

const crlf = (lines: string[]): string => lines.map((line) => `${line}\r\n`).join('');

describe('vCard cards', () => {
  it('is the format of .vcf and .vcard files, whatever their case', () => {
    expect(['a.vcf', 'dir/B.VCF', 'c.vcard'].map(detectFormat)).toEqual(['vcard', 'vcard', 'vcard']);
  });

  it('yields one record per card: row is the card index, line its BEGIN:VCARD, raw its text', async () => {
    const first = ['BEGIN:VCARD', 'VERSION:3.0', 'FN:Ada Lovelace', 'EMAIL:ada@example.com', 'END:VCARD'];
    const second = ['BEGIN:VCARD', 'VERSION:3.0', 'FN:Alan Turing', 'END:VCARD'];
    const path = files.write('two.vcf', `${crlf(first)}\r\n\r\n${crlf(second)}`);
    const { rows, problems, source } = await readAll(path);
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.row, r.line, r.values.FN])).toEqual([
      [1, 1, 'Ada Lovelace'],
      [2, 8, 'Alan Turing'],
    ]);
    expect(rows[0]!.raw).toBe(crlf(first));
    expect(rows[1]!.raw).toBe(crlf(second));
    expect(source.info).toMatchObject({ format: 'vcard', rows: 2, encoding: 'utf-8', delimiter: null });
  });

  it('reads single-card files joined together, LF, CRLF and CR CR LF line ends, and a last card without a final break', async () => {
    const text =
      'BEGIN:VCARD\nVERSION:2.1\nN:Doe;Jane\nEND:VCARD\n' +
      'BEGIN:VCARD\r\r\nVERSION:3.0\r\r\nFN:John Doe\r\r\nEND:VCARD\r\r\n' +
      'BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Jim Doe\r\nEND:VCARD';
    const { rows } = await readAll(files.write('joined.vcf', text));
    expect(rows.map((r) => [r.line, r.values['N.given'] ?? r.values.FN])).toEqual([
      [1, 'Jane'],
      [5, 'John Doe'],
      [9, 'Jim Doe'],
    ]);
    expect(rows[1]!.values).toEqual({ FN: 'John Doe' });
  });

  it('unfolds lines continued with a space or a tab, and takes the line of BEGIN:VCARD after a preamble', async () => {
    const text = crlf([
      'some text before the first card',
      'BEGIN:VCARD',
      'VERSION:3.0',
      'NOTE:first part ',
      ' and sec',
      '\tond part',
      'FN:Ada',
      ' Lovelace',
      'END:VCARD',
    ]);
    const { rows } = await readAll(files.write('folded.vcf', text));
    expect(rows[0]!.line).toBe(2);
    expect(rows[0]!.values).toEqual({ NOTE: 'first part and second part', FN: 'AdaLovelace' });
  });

  it('reads escapes: \\, \\; \\n in text, a structured value split only on bare semicolons, Apple http\\://', async () => {
    const text = crlf([
      'BEGIN:VCARD',
      'VERSION:3.0',
      'N:Doe;John;Richter\\, James;Mr.;Sr.',
      'NOTE:one\\, two\\; three\\nfour\\\\five',
      'ORG:Acme\\; Sons;Sales;West',
      'URL:http\\://www.example.com',
      'CATEGORIES:Friends,Work',
      'END:VCARD',
    ]);
    const { rows } = await readAll(files.write('escapes.vcf', text));
    expect(rows[0]!.values).toEqual({
      'N.family': 'Doe',
      'N.given': 'John',
      'N.additional': 'Richter, James',
      'N.prefix': 'Mr.',
      'N.suffix': 'Sr.',
      NOTE: 'one, two; three\nfour\\five',
      'ORG.name': 'Acme; Sons',
      'ORG.unit': 'Sales, West',
      'URL.1.value': 'http://www.example.com',
      CATEGORIES: 'Friends,Work',
    });
  });

  it('keeps vCard 2.1 commas literal and reads its nameless parameters as TYPE', async () => {
    const text = crlf([
      'BEGIN:VCARD',
      'VERSION:2.1',
      'N;LANGUAGE=en-us:Doe;John;Richter,James;Mr.;Sr.',
      'ORG:Company, The;Department',
      'TEL;WORK;FAX:+1 415 555 0100',
      'TEL;CELL;PREF:+1 415 555 0101',
      'EMAIL;PREF;INTERNET:john@example.com',
      'CATEGORIES:Friends,Family',
      'END:VCARD',
    ]);
    const { rows } = await readAll(files.write('v21.vcf', text));
    expect(rows[0]!.values).toEqual({
      'N.family': 'Doe',
      'N.given': 'John',
      'N.additional': 'Richter,James',
      'N.prefix': 'Mr.',
      'N.suffix': 'Sr.',
      'ORG.name': 'Company, The',
      'ORG.unit': 'Department',
      'TEL.1.value': '+1 415 555 0100',
      'TEL.1.label': 'work fax',
      'TEL.2.value': '+1 415 555 0101',
      'TEL.2.label': 'cell',
      'EMAIL.1.value': 'john@example.com',
      CATEGORIES: 'Friends,Family',
    });
  });

  it('decodes 2.1 quoted-printable in its CHARSET, with soft line breaks and CRLF inside the value', async () => {
    const text = crlf([
      'BEGIN:VCARD',
      'VERSION:2.1',
      'N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=C3=B6rg;;;',
      'FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:J=C3=B6rg M=C3=BC=',
      'ller',
      'NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=WINDOWS-1252:Caf=E9, line one=0D=0Aline two=',
      '=0D=0A',
      'ADR;HOME;QUOTED-PRINTABLE:;;Stra=DFe 5;K=F6ln;;50667;Deutschland',
      'END:VCARD',
    ]);
    const { rows } = await readAll(files.write('qp.vcf', text));
    expect(rows[0]!.values).toMatchObject({
      'N.family': 'Müller',
      'N.given': 'Jörg',
      FN: 'Jörg Müller',
      NOTE: 'Café, line one\nline two',
      'ADR.1.street': 'Straße 5',
      'ADR.1.formatted': 'Straße 5, Köln, 50667, Deutschland',
      'ADR.1.label': 'home',
    });
  });

  it('reads a Windows-1252 file, and a raw value whose CHARSET says UTF-8 in it', async () => {
    const text = crlf(['BEGIN:VCARD', 'VERSION:2.1', 'N:Müller;Jörg', 'END:VCARD']);
    const utf8Name = Buffer.from('FN;CHARSET=UTF-8:Jörg Müller\r\n', 'utf8');
    const bytes = Buffer.concat([
      iconv.encode(text.replace('END:VCARD\r\n', ''), 'windows-1252'),
      utf8Name,
      Buffer.from('END:VCARD\r\n'),
    ]);
    const { rows, source } = await readAll(files.write('cp1252.vcf', bytes));
    expect(source.info.encoding).toBe('windows-1252');
    expect(rows[0]!.values).toEqual({ 'N.family': 'Müller', 'N.given': 'Jörg', FN: 'Jörg Müller' });
  });

  it("labels grouped properties with Apple's X-ABLabel, built-in labels spelled out", async () => {
    const text = crlf([
      'BEGIN:VCARD',
      'VERSION:3.0',
      'item1.EMAIL;type=INTERNET;type=pref:john@example.com',
      'item1.X-ABLabel:_$!<Other>!$_',
      'item2.TEL:+1 415 555 0102',
      'item2.X-ABLabel:_$!<HomeFAX>!$_',
      'ITEM3.TEL;type=pref:+1 415 555 0103',
      'item3.X-ABLabel:iPhone',
      'TEL;type=WORK;type=VOICE;type=pref:+1 415 555 0104',
      'item4.URL:http\\://example.com/john',
      'item4.X-ABLabel:_$!<HomePage>!$_',
      'END:VCARD',
    ]);
    const { rows } = await readAll(files.write('apple.vcf', text));
    expect(rows[0]!.values).toEqual({
      'EMAIL.1.value': 'john@example.com',
      'EMAIL.1.label': 'Other',
      'TEL.1.value': '+1 415 555 0102',
      'TEL.1.label': 'Home FAX',
      'TEL.2.value': '+1 415 555 0103',
      'TEL.2.label': 'iPhone',
      'TEL.3.value': '+1 415 555 0104',
      'TEL.3.label': 'work',
      'URL.1.value': 'http://example.com/john',
      'URL.1.label': 'Home Page',
    });
  });

  it('reads vCard 4.0: tel: URIs, year-less birthdays, quoted TYPE lists, social profiles and IMPP by service', async () => {
    const text = crlf([
      'BEGIN:VCARD',
      'VERSION:4.0',
      'FN:Simon Perreault',
      'BDAY:--0203',
      'TEL;VALUE=uri;TYPE="work,cell,voice":tel:+1-418-262-6501',
      'X-SOCIALPROFILE;TYPE=microblog;x-user=simon:https://microblog.example/simon',
      'X-SOCIALPROFILE;type=worknet;x-user=sperreault:x-apple:sperreault',
      'IMPP;X-SERVICE-TYPE=chatapp:chatapp:+14182626501',
      'IMPP:xmpp:simon@example.com',
      'END:VCARD',
    ]);
    const { rows } = await readAll(files.write('v4.vcf', text));
    expect(rows[0]!.values).toEqual({
      FN: 'Simon Perreault',
      BDAY: '--02-03',
      'TEL.1.value': '+1-418-262-6501',
      'TEL.1.label': 'work cell',
      'SOCIALPROFILE.microblog': 'https://microblog.example/simon',
      'SOCIALPROFILE.worknet': 'sperreault',
      'IMPP.chatapp': '+14182626501',
      'IMPP.xmpp': 'simon@example.com',
    });
  });

  it('formats every ADR on one line and keeps its parts; birthdays in basic format come out ISO', async () => {
    const text = crlf([
      'BEGIN:VCARD',
      'VERSION:3.0',
      'ADR;TYPE=WORK:;Suite 5;1 Main St\\nBuilding B;Springfield;IL;62701;USA',
      'ADR;TYPE=HOME:;;;;;;',
      'ADR:;Apt 2\\, back;;Paris;;75001;France',
      'BDAY:19800322',
      'END:VCARD',
    ]);
    const { rows } = await readAll(files.write('adr.vcf', text));
    expect(rows[0]!.values).toEqual({
      'ADR.1.formatted': 'Suite 5, 1 Main St, Building B, Springfield, IL 62701, USA',
      'ADR.1.label': 'work',
      'ADR.1.extended': 'Suite 5',
      'ADR.1.street': '1 Main St\nBuilding B',
      'ADR.1.locality': 'Springfield',
      'ADR.1.region': 'IL',
      'ADR.1.code': '62701',
      'ADR.1.country': 'USA',
      'ADR.2.formatted': 'Apt 2, back, Paris, 75001, France',
      'ADR.2.extended': 'Apt 2, back',
      'ADR.2.locality': 'Paris',
      'ADR.2.code': '75001',
      'ADR.2.country': 'France',
      BDAY: '1980-03-22',
    });
  });

  it('leaves photos out of the record and counts them in info.ignored', async () => {
    const text = crlf([
      'BEGIN:VCARD',
      'VERSION:2.1',
      'FN:Ada',
      'PHOTO;ENCODING=BASE64;JPEG:/9j/4AAQSkZJRgABAQAAAQABAAD',
      ' /2wBDAAIBAQEBAQIBAQE',
      '',
      'PHOTO;BASE64:',
      '  /9j/4AAQSkZJRgABAQAAAQABAAD',
      'KEY;X509;ENCODING=BASE64:MIIDITCCAoqgAwIBAgIQT52W2WawmStUwpV8tBV9TTANBgkqhkiG9w0BAQUFADBMMQswCQYD',
      'EMAIL:ada@example.com',
      'END:VCARD',
    ]);
    const { rows, source } = await readAll(files.write('photo.vcf', text));
    expect(rows[0]!.values).toEqual({ FN: 'Ada', 'EMAIL.1.value': 'ada@example.com' });
    expect(source.info.ignored).toEqual({ PHOTO: 2 });
  });

  it("passes over group cards (Apple's X-ADDRESSBOOKSERVER-KIND, 4.0 KIND): members, not a person", async () => {
    const person = [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Ada',
      'UID:ada-1',
      'EMAIL:ada@example.com',
      'END:VCARD',
    ];
    const apple = [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Friends',
      'X-ADDRESSBOOKSERVER-KIND:group',
      'X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:ada-1',
      'END:VCARD',
    ];
    const v4 = ['BEGIN:VCARD', 'VERSION:4.0', 'KIND:Group', 'FN:Team', 'MEMBER:urn:uuid:ada-1', 'END:VCARD'];
    const { rows, problems, source } = await readAll(
      files.write('groups.vcf', crlf([...apple, ...person, ...v4])),
    );
    expect(problems).toEqual([]);
    expect(rows.map((r) => [r.row, r.values.FN])).toEqual([[2, 'Ada']]);
    expect(source.info).toMatchObject({ rows: 1, ignored: { 'group card': 2 } });
  });
});

describe('vCard problems', () => {
  it('a card cut short is a problem with its text; reading goes on with the next card', async () => {
    const text = crlf([
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Cut Short',
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:Whole',
      'END:VCARD',
      'BEGIN:VCARD',
      'FN:At The End',
    ]);
    const path = files.write('cut.vcf', text);
    const { items } = await readAll(path);
    expect(items.map((i) => [i.kind, i.row, i.line])).toEqual([
      ['problem', 1, 1],
      ['row', 2, 4],
      ['problem', 3, 8],
    ]);
    expect(items[0]).toMatchObject({
      code: 'row_unparseable',
      message: `Card 1 (line 1) of ${path} has no END:VCARD before the next BEGIN:VCARD on line 4.`,
      raw: 'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Cut Short\r\n',
    });
    expect(items[2]).toMatchObject({
      message: `Card 3 (line 8) of ${path} has no END:VCARD before the end of the file.`,
    });
  });

  it('a line that is no property, or quoted-printable bytes invalid in the declared charset, rejects its card', async () => {
    const text = crlf([
      'BEGIN:VCARD',
      'FN:Broken',
      'this line has no colon',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:2.1',
      'ORG;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=91=80',
      'END:VCARD',
      'BEGIN:VCARD',
      'FN:Fine',
      'END:VCARD',
    ]);
    const path = files.write('bad-lines.vcf', text);
    const { items } = await readAll(path);
    expect(items.map((i) => [i.kind, i.row])).toEqual([
      ['problem', 1],
      ['problem', 2],
      ['row', 3],
    ]);
    expect(items[0]).toMatchObject({
      code: 'row_unparseable',
      message: `Card 1 (line 1) of ${path}: line 3 is not a property (expected NAME;PARAM=VALUE:VALUE).`,
    });
    expect(items[1]).toMatchObject({
      code: 'invalid_encoding',
      message: `Card 2 (line 5) of ${path}: line 7 (ORG), once its quoted-printable is decoded, holds bytes that are not valid UTF-8, the charset it declares.`,
    });
  });

  it('a file without any card is unreadable', async () => {
    const error = await readAll(files.write('none.vcf', 'Name,Email\nAda,ada@example.com\n')).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isImportError(error) && error.code).toBe('input_unreadable');
    expect((error as Error).message).toMatch(/holds no vCard: no BEGIN:VCARD line/);
  });
});

describe('splitCards', () => {
  const chunksOf = (parts: string[], pulled: { count: number }): AsyncIterator<Buffer> => {
    const queue = parts.map((part) => Buffer.from(part, 'utf8'));
    return {
      next: () => {
        const value = queue.shift();
        if (value) pulled.count++;
        return Promise.resolve(value ? { done: false, value } : { done: true, value: undefined });
      },
    };
  };
  const options = { maxCardChars: 200, invalidSeen: () => false, encoding: 'utf-8' };

  it('yields a card as soon as its END:VCARD arrives, before the rest of the file is read', async () => {
    const pulled = { count: 0 };
    const parts = [
      'BEGIN:VCARD\r\nFN:One\r\nEND:',
      'VCARD\r\n',
      'BEGIN:VCARD\r\nFN:Two\r\n',
      'END:VCARD\r\n',
    ];
    const cards = splitCards(chunksOf(parts, pulled), options);
    const first = await cards.next();
    expect(first.value).toMatchObject({ index: 1, line: 1, lines: [{ text: 'FN:One', line: 2 }] });
    expect(pulled.count).toBeLessThan(parts.length);
    const rest = [];
    for await (const card of { [Symbol.asyncIterator]: () => cards }) rest.push(card);
    expect(rest.map((card) => [card.index, card.line, card.lines])).toEqual([
      [2, 4, [{ text: 'FN:Two', line: 5 }]],
    ]);
  });

  it('a card larger than the limit is a fault whose text is not held; the next card is read', async () => {
    const big = `NOTE:${'x'.repeat(300)}`;
    const text = crlf(['BEGIN:VCARD', 'FN:Big', big, 'END:VCARD', 'BEGIN:VCARD', 'FN:Small', 'END:VCARD']);
    const cards = [];
    for await (const card of splitCards(chunksOf([text], { count: 0 }), options)) cards.push(card);
    expect(cards[0]).toMatchObject({ index: 1, raw: '', lines: [], fault: { code: 'row_unparseable' } });
    expect(cards[0]!.fault!.message).toMatch(/longer than 200/);
    expect(cards[1]).toMatchObject({ index: 2, line: 5, lines: [{ text: 'FN:Small', line: 6 }] });
    expect(cards[1]!.fault).toBeUndefined();
  });
});
