import { xml, zipOf, type ZipPart } from './zip-package.js';

export { zipOf, type ZipPart };

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
