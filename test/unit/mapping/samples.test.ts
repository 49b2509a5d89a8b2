import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { createRowMapper, loadPipeline } from '../../../src/mapping/index.js';
import type { DraftContact } from '../../../src/mapping/types.js';

const SAMPLES = path.resolve(import.meta.dirname, '../../../samples');

/** Reads a sample with csv-parse directly (not our readers), so this tests the samples and the mapping only. */
const readSample = (
  name: string,
  skipLines = 0,
): { header: string[]; rows: Record<string, string>[]; bytes: Buffer } => {
  const bytes = readFileSync(path.join(SAMPLES, name));
  const text =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? iconv.decode(bytes.subarray(2), 'utf-16le')
      : bytes.toString('utf8');
  const records: string[][] = parse(text, { from_line: skipLines + 1 });
  const [header, ...data] = records;
  return {
    header: header!,
    rows: data.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i]!]))),
    bytes,
  };
};

const mapAll = async (pipelineName: string, name: string) => {
  const pipeline = await loadPipeline(pipelineName);
  const { header, rows, bytes } = readSample(name, pipeline.dialect.skipLines ?? 0);
  const mapper = createRowMapper(pipeline, header, name);
  const drafts = rows.map((values, i) =>
    mapper.map({ kind: 'row', file: name, row: i + 1, line: i + 2, values, raw: '' }),
  );
  return { header, drafts, bytes, headerIssues: mapper.headerIssues };
};

const emails = (d: DraftContact) => d.emails.map((e) => e.value);

describe('samples map cleanly with their built-in pipeline', () => {
  it('generic.csv', async () => {
    const { drafts, headerIssues } = await mapAll('generic', 'generic.csv');
    expect(headerIssues).toEqual([]);
    expect(drafts).toHaveLength(12);
    expect(emails(drafts[1]!)).toEqual(['ADA@Example.com']); // the duplicate of row 1, by case
    expect(drafts[3]!.fields.description?.value).toBe('Met at the march, Washington\nFollow up in spring');
    expect(drafts[9]!.name).toEqual({}); // the row with no identity
  });

  it('generic.json', async () => {
    const pipeline = await loadPipeline('generic');
    const objects = JSON.parse(readFileSync(path.join(SAMPLES, 'generic.json'), 'utf8')) as Record<
      string,
      unknown
    >[];
    const mapper = createRowMapper(pipeline, undefined, 'generic.json');
    const drafts = objects.map((values, i) =>
      mapper.map({ kind: 'row', file: 'generic.json', row: i + 1, line: i + 2, values, raw: '' }),
    );
    expect(drafts).toHaveLength(8);
    expect(drafts[0]!.customFields.map((c) => c.name)).toEqual(['Favorite Color']);
    expect(drafts[0]!.reminders).toHaveLength(1);
    expect(drafts[3]!.phones[0]?.value).toBe('4155550190');
  });

  it('address-book.csv (newer, UTF-8)', async () => {
    const { drafts, headerIssues } = await mapAll('address-book-csv', 'address-book.csv');
    expect(headerIssues).toEqual([]);
    expect(drafts).toHaveLength(10);
    expect(emails(drafts[0]!)).toEqual(['maria.garcia@example.es', 'mjgarcia@example.com']);
    expect(drafts[0]!.fields.starred?.value).toBe(true);
    expect(drafts[0]!.groups.map((g) => g.value)).toEqual(['Friends']);
    expect(drafts.flatMap((d) => d.groups.map((g) => g.value))).not.toContain('myContacts');
  });

  it('address-book-legacy.csv (older, UTF-16 LE with BOM)', async () => {
    const { drafts, headerIssues, bytes, header } = await mapAll(
      'address-book-csv',
      'address-book-legacy.csv',
    );
    expect([...bytes.subarray(0, 4)]).toEqual([0xff, 0xfe, 0x4e, 0x00]); // BOM, then "N" of "Name"
    expect(header).toContain('E-mail 1 - Type');
    expect(headerIssues).toEqual([]);
    expect(drafts).toHaveLength(8);
    expect(drafts[0]!.name.full?.value).toBe('Renée Lefèvre');
    expect(emails(drafts[1]!)).toEqual(['juergen.weiss@example.de', 'jweiss@example.com']);
  });

  it('mail-client.csv (desktop: 92 quoted columns)', async () => {
    const { drafts, headerIssues, header, bytes } = await mapAll('mail-client-csv', 'mail-client.csv');
    expect(header).toHaveLength(92);
    expect(header.slice(0, 5)).toEqual(['Title', 'First Name', 'Middle Name', 'Last Name', 'Suffix']);
    expect(header.at(-1)).toBe('Web Page');
    expect(bytes.toString('utf8').split('\r\n')[1]).toMatch(/^"Mr\.","John",/);
    expect(headerIssues).toEqual([]);
    expect(drafts).toHaveLength(10);
    expect(drafts[1]!.fields.birthday).toBeUndefined(); // 0/0/00
    expect(drafts[0]!.groups.map((g) => g.value)).toEqual(['Clients', 'VIP']);
  });

  it('worknet-connections.csv (three preamble lines)', async () => {
    const { drafts, headerIssues, header } = await mapAll('worknet-connections', 'worknet-connections.csv');
    expect(header).toEqual([
      'First Name',
      'Last Name',
      'URL',
      'Email Address',
      'Company',
      'Position',
      'Connected On',
    ]);
    expect(headerIssues).toEqual([]);
    expect(drafts).toHaveLength(10);
    expect(drafts.every((d) => d.customFields[0]?.name === 'Connected On')).toBe(true);
  });
});
