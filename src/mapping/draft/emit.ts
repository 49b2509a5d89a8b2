import { Document, isMap, isScalar, isSeq, type Node } from 'yaml';
import type { DraftResult } from './draft.js';

const HEADER = [
  ' DRAFT pipeline written by `contact-import init`: check it before a real run.',
  ' - Each mapped column says why it was chosen (header name, sampled values).',
  ' - Check the name columns, date_format (day or month first?) and phone labels.',
  ' - Numbers written without +country need `region: XX` (ISO 3166 alpha-2, e.g. US).',
  ' - Unmapped columns are listed at the end; map the ones you need (docs/pipelines.md).',
  ' Try it: contact-import validate <this file> <input>',
];

/** What the header says about numbers written without +country, when the sample has some. */
const regionNote = ({ national, region }: DraftResult['region']): string[] => {
  if (national === 0) return [];
  const numbers = `${national} sampled number${national === 1 ? '' : 's'} without +country`;
  return region !== undefined
    ? [` - ${numbers}: region ${region} is proposed below; change it if the numbers are from elsewhere.`]
    : [` - ${numbers} and no sign of their country: add \`region: XX\` (e.g. DE) or pass --region.`];
};

/** Puts the reason beside the column name it explains, wherever in the document that name is. */
const annotate = (node: unknown, reasons: Map<string, string>): void => {
  if (isScalar(node) && typeof node.value === 'string' && reasons.has(node.value)) {
    node.comment = ` ${reasons.get(node.value)!}`;
    return;
  }
  if (isSeq(node)) for (const item of node.items) annotate(item, reasons);
  if (isMap(node))
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? pair.key.value : undefined;
      if (key !== 'label') annotate(pair.value, reasons);
    }
};

/** The draft as YAML text: a header comment, the mapping with its reasons, unmapped columns last. */
export const emitDraft = ({ pipeline, reasons, unmapped, region }: DraftResult): string => {
  const data: Record<string, unknown> = { ...pipeline };
  for (const key of ['name_parts', 'fields', 'emails', 'phones', 'groups'] as const) {
    const value = pipeline[key];
    if (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0) delete data[key];
  }
  const doc = new Document(data);
  doc.commentBefore = [...HEADER, ...regionNote(region)].join('\n');
  const regionNode = doc.get('region', true);
  if (region.region !== undefined && isScalar(regionNode))
    regionNode.comment = ` guessed: ${region.reason}; check it (numbers without +country are read in it)`;
  for (const key of ['name_parts', 'fields', 'emails', 'phones', 'groups'])
    annotate(doc.get(key, true) as Node, reasons);
  if (unmapped.length > 0)
    doc.comment = [
      ' Unmapped columns (add them under fields, custom_fields, ... as needed):',
      ...unmapped.map(({ column, reason }) => `   ${JSON.stringify(column)}: ${reason}`),
    ].join('\n');
  return doc.toString({ lineWidth: 0 });
};
