import { describe, expect, it } from 'vitest';
import { mergeRecords } from '../../../src/package/merge.js';
import type { NormalizedRecord } from '../../../src/normalize/record.js';

const record = (over: Partial<NormalizedRecord>): NormalizedRecord => ({
  file: 'a.csv',
  row: 1,
  line: 2,
  input: 0,
  key: 'email:a@x.io',
  contact: {},
  groups: [],
  customFields: [],
  reminders: [],
  ...over,
});

describe('mergeRecords', () => {
  it('keeps the first non-empty value and unions lists, renumbering rankings', () => {
    const first = record({
      contact: {
        full_name: 'Ann',
        company: null,
        contact_emails: [{ email: 'a@x.io', label: 'work', ranking: 1 }],
      },
      groups: ['Friends'],
    });
    const dup = record({
      row: 9,
      contact: {
        full_name: 'Annie',
        company: 'ACME',
        job_title: 'CTO',
        contact_emails: [
          { email: 'a@x.io', label: 'home', ranking: 1 },
          { email: 'ann@home.io', label: 'home', ranking: 2 },
        ],
      },
      groups: ['Friends', 'Work'],
      customFields: [{ name: 'Met', value: 'conf', fieldType: 'input' }],
    });
    const merged = mergeRecords(first, dup);
    expect(merged.row).toBe(1);
    expect(merged.contact).toMatchObject({ full_name: 'Ann', company: 'ACME', job_title: 'CTO' });
    expect(merged.contact.contact_emails).toEqual([
      { email: 'a@x.io', label: 'work', ranking: 1 },
      { email: 'ann@home.io', label: 'home', ranking: 2 },
    ]);
    expect(merged.groups).toEqual(['Friends', 'Work']);
    expect(merged.customFields).toHaveLength(1);
    expect(first.contact.company).toBeNull();
  });

  it("keeps every merged record's source ids", () => {
    const merged = mergeRecords(
      record({ sources: ['source:crm:1'] }),
      record({ row: 3, sources: ['source:crm:3'] }),
    );
    expect(merged.sources).toEqual(['source:crm:1', 'source:crm:3']);
    expect(mergeRecords(record({}), record({ row: 2 })).sources).toBeUndefined();
  });

  it('keeps the limits of one record: at most 50 e-mails after a merge', () => {
    const emails = (from: number) =>
      Array.from({ length: 40 }, (_, i) => ({ email: `p${from + i}@x.io`, label: 'work', ranking: i + 1 }));
    const merged = mergeRecords(
      record({ contact: { contact_emails: emails(0) } }),
      record({ row: 2, contact: { contact_emails: emails(40) } }),
    );
    expect(merged.contact.contact_emails?.map((e) => e.email)).toEqual(
      emails(0)
        .concat(emails(40))
        .slice(0, 50)
        .map((e) => e.email),
    );
  });
});
