import { crc32, deflateRawSync } from 'node:zlib';

/** One part of a ZIP package: its name and bytes, or deflated bytes standing for `size` bytes. */
export type ZipPart =
  { name: string; data: Buffer } | { name: string; deflated: Buffer; size: number; crc: number };

/**
 * A ZIP package (deflate, no ZIP64) from parts, for tests that build workbooks: well-formed ones
 * and bombs, whose parts inflate far beyond their stored size.
 */
export const zipOf = (parts: ZipPart[]): Buffer => {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const stored = 'data' in part ? deflateRawSync(part.data) : part.deflated;
    const size = 'data' in part ? part.data.length : part.size;
    const crc = 'data' in part ? crc32(part.data) : part.crc;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(stored.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, stored);
    central.push(entry, name);
    offset += local.length + name.length + stored.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
};

const xml = (body: string): Buffer =>
  Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`);
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * The parts of a one-sheet workbook whose sheet holds `sheetData` and whose shared strings part
 * is `sharedStrings` (a ZipPart named xl/sharedStrings.xml, or none).
 */
export const workbookParts = (sheetData: string, sharedStrings?: ZipPart): ZipPart[] => [
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
        (sharedStrings
          ? `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`
          : '') +
        '</Relationships>',
    ),
  },
  {
    name: 'xl/worksheets/sheet1.xml',
    data: xml(`<worksheet xmlns="${MAIN}"><sheetData>${sheetData}</sheetData></worksheet>`),
  },
  ...(sharedStrings ? [sharedStrings] : []),
];

/** An inline-string cell. */
export const inlineCell = (ref: string, text: string): string =>
  `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
