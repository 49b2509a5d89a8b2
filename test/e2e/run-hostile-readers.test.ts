import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { outcomes, readIssues, readReport, startService, tempDir, type TestService } from './harness.js';
import { runImport } from '../../src/run/run.js';
import type { RunOptions } from '../../src/run/run-types.js';
import { inlineCell, workbookParts, zipOf } from '../support/zip-writer.js';
import { keptMessages } from '../support/in-process-runs.js';
import { stopOf } from './cli-in-process.js';

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

/**
 * What `run generic <file> --target <svc> --state state --out <out>` runs in `dir`, into a fresh
 * local service, in this process (what is checked is what the reader made of the bytes; how a
 * stop reads on the command line is hostile-huge.test.ts's and validate-hostile.test.ts's); its
 * exit code and what it stored, by e-mail.
 */
const runInto = async (dir: string, file: string, out = 'out', hooks?: RunOptions['hooks']) => {
  svc ??= await startService();
  const { report } = await runImport({
    pipeline: 'generic',
    inputs: [join(dir, file)],
    target: { url: svc.service.url, apiKey: svc.key },
    stateDir: join(dir, 'state'),
    outDir: join(dir, out),
    ...(hooks ? { hooks } : {}),
  });
  return {
    code: report.exitCode,
    ...(await stored()),
    report: readReport(join(dir, out)),
    issues: readIssues(join(dir, out)),
  };
};

const nameOf = (contact: Record<string, unknown>): string =>
  typeof contact.full_name === 'string' ? contact.full_name : '';

const stored = async () => {
  const contacts = await svc!.client.local.contacts();
  const nameByEmail = new Map<string, string>();
  for (const c of contacts) for (const e of c.contact_emails) nameByEmail.set(e.email, nameOf(c));
  return { contacts, nameByEmail };
};

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const cp1252 = (text: string) => iconv.encode(text, 'windows-1252');

describe('run: a file of UTF-8 but for some rows', () => {
  it('stores each row as written: UTF-8 rows as UTF-8, Windows-1252 rows as that with a warning, a broken row rejected', async () => {
    const dir = tempDir();
    const bytes = Buffer.concat([
      utf8('full_name,email\nJosé García,jose@example.com\nZoë Müller,zoe@example.com\n'),
      cp1252('Renée Côté,renee@example.com\n'),
      utf8('Łukasz Żak,lukasz@example.com\nbroken é '),
      Buffer.from([0xff]),
      utf8(',broken@example.com\n'),
    ]);
    writeFileSync(join(dir, 'mixed.csv'), bytes);
    const { code, nameByEmail, report, issues } = await runInto(dir, 'mixed.csv');
    expect(code).toBe(1);
    expect(report.inputs[0]!.encoding).toBe('utf-8');
    expect(report.totals).toMatchObject({ read: 5, created: 4, rejected: 1 });
    expect(Object.fromEntries(nameByEmail)).toEqual({
      'jose@example.com': 'José García',
      'zoe@example.com': 'Zoë Müller',
      'renee@example.com': 'Renée Côté',
      'lukasz@example.com': 'Łukasz Żak',
    });
    expect(issues.map(({ file, row, severity, code }) => ({ file, row, severity, code }))).toEqual([
      { file: join(dir, 'mixed.csv'), row: '3', severity: 'warning', code: 'mixed_encoding' },
      { file: join(dir, 'mixed.csv'), row: '5', severity: 'error', code: 'invalid_encoding' },
    ]);
  });

  it('one Windows-1252 byte early in a UTF-8 file of 200 names leaves every name right', async () => {
    const dir = tempDir();
    const names = Array.from({ length: 200 }, (_, i) => `José Núñez ${i},n${i}@example.com`);
    writeFileSync(
      join(dir, 'stray.csv'),
      Buffer.concat([
        utf8('full_name,email\n'),
        cp1252('Ann Müller,ann@example.com\n'),
        utf8(`${names.join('\n')}\n`),
      ]),
    );
    const { code, nameByEmail, report, issues } = await runInto(dir, 'stray.csv');
    expect(code).toBe(0);
    expect(report.totals).toMatchObject({ read: 201, created: 201 });
    expect(nameByEmail.get('ann@example.com')).toBe('Ann Müller');
    for (let i = 0; i < 200; i++) expect(nameByEmail.get(`n${i}@example.com`)).toBe(`José Núñez ${i}`);
    expect(issues).toMatchObject([{ row: '1', severity: 'warning', code: 'mixed_encoding' }]);
  });
});

describe('run: an input that changes while it is read', () => {
  it('a file cut short mid-row stops the run with input_changed; the cut row is not loaded, the rows sent are accounted for', async () => {
    const dir = tempDir();
    // A file well past what is read when the hook fires (1,024 records in), cut short by the hook
    // in the middle of a row further on.
    const ROWS = 4_200;
    const rows = Array.from({ length: ROWS }, (_, i) => `Person Number ${i},p${i}@example.com`);
    const text = `full_name,email\n${rows.join('\n')}\n`;
    const file = join(dir, 'people.csv');
    writeFileSync(file, text);
    const cutRow = 4_000;
    const cutAt = text.indexOf(`Person Number ${cutRow},`) + 'Person Num'.length;
    // In this process, as test/support/hooked-run.mjs would run it: the run's own error is what is
    // checked, the line the command line prints being `<code>: <message>`.
    let cuts = 0;
    const cut = await runInto(dir, 'people.csv', 'cut', {
      onStep: (step) => {
        if (step === 'read' && ++cuts === 1) truncateSync(file, cutAt);
      },
    });
    expect(cut.code).toBe(2);
    const line = `${cut.report.error?.code}: ${cut.report.error?.message}`;
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toMatch(
      /input_changed: Input file .*people\.csv changed while it was read \(it shrank from \d+ to \d+ bytes\)/,
    );
    const report = readReport(join(dir, 'cut'));
    expect(report.error).toMatchObject({ code: 'input_changed' });
    expect(report.inputs[0]).toMatchObject({ readWhole: false });
    expect(report.totals.read).toBeLessThan(cutRow);
    expect(outcomes(report)).toBe(report.totals.read);
    const { contacts } = await stored();
    // What reached the service is what the report counts as loaded, every one with its e-mail.
    expect(contacts).toHaveLength(report.totals.created);
    expect(contacts.every((c) => c.contact_emails.length === 1)).toBe(true);
    expect(contacts.some((c) => nameOf(c).startsWith('Person Num') && !/\d$/.test(nameOf(c)))).toBe(false);

    // The whole file later: every person once, the one the cut row was too.
    writeFileSync(file, text);
    const again = await runInto(dir, 'people.csv', 'whole');
    expect(again.code).toBe(0);
    expect(again.report.inputs[0]).toMatchObject({ readWhole: true });
    expect(again.contacts).toHaveLength(ROWS);
    expect(again.nameByEmail.get(`p${cutRow}@example.com`)).toBe(`Person Number ${cutRow}`);
  }, 180_000);
});

describe('run: a vCard 2.1 card of several megabytes of quoted-printable', () => {
  it('is read and loaded with its values right, its photo counted and left out', async () => {
    const dir = tempDir();
    const line = '=4A=6F=73=C3=A9 Garc=C3=ADa '; // "José García "
    const note = Array.from({ length: 40_000 }, () => `${line}=`).join('\r\n');
    const photo = Array.from({ length: 60_000 }, () => '=FF=D8=FF=E0=00=10=4A=46=49=46=').join('\r\n');
    const card =
      'BEGIN:VCARD\r\nVERSION:2.1\r\nN:García;José\r\nFN:José García\r\nEMAIL;INTERNET:jose@example.com\r\n' +
      `PHOTO;JPEG;ENCODING=QUOTED-PRINTABLE:${photo}\r\n\r\n` +
      `NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:${note}\r\nend\r\nEND:VCARD\r\n`;
    expect(card.length).toBeGreaterThan(3_000_000);
    writeFileSync(join(dir, 'big.vcf'), card);
    svc = await startService();
    // `run vcard big.vcf --target <svc> --out out` in this process: what the command line would
    // print on stderr at its default level (warnings and errors) kept, and none expected.
    const { logger, messages } = keptMessages('warn');
    const { report } = await runImport({
      pipeline: 'vcard',
      inputs: [join(dir, 'big.vcf')],
      target: { url: svc.service.url, apiKey: svc.key },
      stateDir: join(dir, '.contact-import'),
      outDir: join(dir, 'out'),
      logger,
    });
    expect(messages).toEqual([]);
    expect(report.exitCode, JSON.stringify(report.error)).toBe(0);
    expect(readReport(join(dir, 'out')).inputs[0]).toMatchObject({
      rows: 1,
      ignored: { PHOTO: 1 },
      readWhole: true,
    });
    const [contact, ...others] = await svc.client.local.contacts();
    expect(others).toEqual([]);
    expect(contact).toMatchObject({
      full_name: 'José García',
      contact_emails: [{ email: 'jose@example.com' }],
    });
    expect(contact!['description']).toBe(`${'José García '.repeat(40_000)}end`);
  });
});

describe('run: a workbook whose shared strings inflate past the bound', () => {
  it('stops with exit 2 and one line naming the file, the part and the limit; nothing is sent', async () => {
    const dir = tempDir();
    const strings = Buffer.from(`<sst>${'<si><t>x</t></si>'.repeat(1000)}</sst>`);
    const header = `<row r="1">${inlineCell('A1', 'full_name')}${inlineCell('B1', 'email')}</row>`;
    const rows = `<row r="2">${inlineCell('A2', 'Ann')}${inlineCell('B2', 'ann@example.com')}</row>`;
    // The package says its shared strings inflate to 3 GB (what a bomb says; yauzl holds a part
    // to what its package says, so one that says less stops when it inflates past it).
    const bomb = {
      name: 'xl/sharedStrings.xml',
      deflated: deflateRawSync(strings),
      size: 3 * 1024 * 1024 * 1024,
      crc: crc32(strings),
    };
    writeFileSync(join(dir, 'bomb.xlsx'), zipOf(workbookParts(header + rows, bomb)));
    svc = await startService();
    // `run generic bomb.xlsx --target <svc> --out out` in this process: its stop is the line the
    // command line prints as `contact-import: <code>: <message>`.
    const stop = await stopOf(
      runImport({
        pipeline: 'generic',
        inputs: [join(dir, 'bomb.xlsx')],
        target: { url: svc.service.url, apiKey: svc.key },
        stateDir: join(dir, '.contact-import'),
        outDir: join(dir, 'out'),
      }),
    );
    const line = `contact-import: ${stop?.code}: ${stop?.message}`;
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toMatch(
      /^contact-import: input_unreadable: \S*bomb\.xlsx: the part xl\/sharedStrings\.xml inflates to 3221225472 bytes, more than the 536870912 bytes a workbook part may/,
    );
    expect(await svc.client.local.contacts()).toEqual([]);
  });
});

describe('run: half a UTF-16 surrogate pair in a JSON string', () => {
  it('is stored as U+FFFD with a warning naming the file, row and field', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'lone.json'),
      '[{"full_name":"Ann \\ud800Lee","email":"ann@example.com"},{"full_name":"Bob","email":"bob@example.com"}]',
    );
    const { code, nameByEmail, issues } = await runInto(dir, 'lone.json');
    expect(code).toBe(0);
    expect(nameByEmail.get('ann@example.com')).toBe('Ann \uFFFDLee');
    expect(nameByEmail.get('bob@example.com')).toBe('Bob');
    expect(issues).toMatchObject([
      {
        file: join(dir, 'lone.json'),
        row: '1',
        field: 'full_name',
        severity: 'warning',
        stage: 'read',
        code: 'lone_surrogate',
      },
    ]);
  });
});
