#!/usr/bin/env node
/**
 * Peak memory of reading malformed workbooks: a ZIP package of 0.6 to 2 MB whose one XML part is
 * broken so that an XML parser would hold hundreds of megabytes (text that never meets a `<`, an
 * attribute value or a comment never closed, elements nested without end, millions of styles).
 * Each is read by `validate` in a child process of its own, with test/support/peak-rss.cjs; the
 * well-formed sample workbook is the baseline, measured in the same run. Needs `npm run build`.
 *
 *   node bench/malformed-xlsx.js [--only text,attribute] [--mb 600]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { crc32, deflateRawSync } from 'node:zlib';
import { xml, zipOf } from '../test/support/zip-package.js';

const ROOT = new URL('..', import.meta.url).pathname;
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A part of `head`, then `unit` repeated to about `bytes`, then `tail`: deflated piece by piece. */
const repeated = (name, head, unit, bytes, tail) => {
  const block = Buffer.from(unit.repeat(Math.ceil((1 << 20) / unit.length)));
  const count = Math.max(1, Math.floor(bytes / block.length));
  const pieces = [Buffer.from(head), ...Array.from({ length: count }, () => block), Buffer.from(tail)];
  let crc = 0;
  let size = 0;
  for (const piece of pieces) {
    crc = crc32(piece, crc);
    size += piece.length;
  }
  // One deflate stream over the whole: repeated blocks compress about a thousand to one.
  const deflated = deflateRawSync(Buffer.concat(pieces), { level: 9 });
  return { name, deflated, size, crc };
};

/** A one-sheet workbook with `sheet` as its worksheet part and `styles` as its styles, if given. */
const workbook = (sheet, styles) =>
  zipOf([
    {
      name: '[Content_Types].xml',
      data: xml(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: xml(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
    },
    {
      name: 'xl/workbook.xml',
      data: xml(
        `<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="People" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: xml(
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
          (styles ? `<Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/>` : '') +
          '</Relationships>',
      ),
    },
    sheet,
    ...(styles ? [styles] : []),
  ]);

const SHEET = 'xl/worksheets/sheet1.xml';
const HEADER = `<?xml version="1.0"?><worksheet xmlns="${MAIN}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>full_name</t></is></c><c r="B1" t="inlineStr"><is><t>email</t></is></c></row>`;
const END = '</sheetData></worksheet>';

/** The malformed kinds, each inflating to about `mb` MB. */
export const MALFORMED = {
  // A value whose text never ends: no `<` for the parser to stop at.
  text: (mb) => workbook(repeated(SHEET, `${HEADER}<row r="2"><c r="A2"><v>`, 'x', mb << 20, '')),
  // Text between two rows, outside any cell: read and thrown away, but held whole by the parser.
  between: (mb) => workbook(repeated(SHEET, HEADER, ' Jo ', mb << 20, END)),
  // An attribute value never closed.
  attribute: (mb) => workbook(repeated(SHEET, `${HEADER}<row r="2"><c r="A2" s="`, '7', mb << 20, '')),
  // A comment never closed.
  comment: (mb) => workbook(repeated(SHEET, `${HEADER}<!--`, 'x', mb << 20, '')),
  // Elements nested without end: every open one is kept until it closes.
  nested: (mb) => workbook(repeated(SHEET, `${HEADER}<row r="2">`, '<b>', mb << 20, '')),
  // A styles part of millions of cell formats (a held part, read whole before the sheet).
  styles: (mb) =>
    workbook(
      { name: SHEET, data: Buffer.from(`${HEADER}${END}`) },
      repeated(
        'xl/styles.xml',
        `<styleSheet xmlns="${MAIN}"><cellXfs>`,
        '<xf/>',
        mb << 20,
        '</cellXfs></styleSheet>',
      ),
    ),
};

/** `validate` of `path` in a child of its own: its exit code, first stderr line and peak RSS in MB. */
export const measure = (path, cwd) => {
  const result = spawnSync(
    process.execPath,
    [
      '--require',
      join(ROOT, 'test/support/peak-rss.cjs'),
      join(ROOT, 'dist/cli/main.js'),
      'validate',
      'generic',
      path,
      '--out',
      join(cwd, 'out'),
      '--progress-interval',
      '0',
    ],
    { cwd, encoding: 'utf8', maxBuffer: 64 << 20 },
  );
  const peak = Number(/peak-rss-kb (\d+)/.exec(result.stderr)?.[1]) / 1024;
  const line = result.stderr.split('\n').find((l) => l.trim() !== '') ?? '';
  return { code: result.status, peakMb: Math.round(peak), line };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { only: { type: 'string' }, mb: { type: 'string', default: '600' } },
  });
  const kinds = values.only ? values.only.split(',') : Object.keys(MALFORMED);
  const dir = mkdtempSync(join(tmpdir(), 'bench-xlsx-'));
  try {
    const baseline = measure(join(ROOT, 'samples/people.xlsx'), dir);
    console.log(`baseline samples/people.xlsx: exit ${baseline.code}, peak ${baseline.peakMb} MB`);
    for (const kind of kinds) {
      const path = join(dir, `${kind}.xlsx`);
      writeFileSync(path, MALFORMED[kind](Number(values.mb)));
      const size = (statSync(path).size / 1e6).toFixed(2);
      const m = measure(path, dir);
      console.log(
        `${kind}: ${size} MB file, exit ${m.code}, peak ${m.peakMb} MB (${(m.peakMb / baseline.peakMb).toFixed(1)}x the sample); ${m.line.slice(0, 160)}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
