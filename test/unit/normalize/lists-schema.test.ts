import { describe, expect, it } from 'vitest';
import { contactWriteSchema } from '../../../src/core/schemas/index.js';
import { normalizeRecord, type NormalizeContext } from '../../../src/normalize/normalize-record.js';
import type { RecordOutcome } from '../../../src/core/record.js';
import { draft } from './draft.js';
import { readPlainTsv, readQuotedTsv } from './testdata.js';

/**
 * normalizeRecord builds `contact_emails` and `contact_phone_numbers` itself and does not run the
 * write schema over them (5% of a dry run): they are the schema's element types by construction.
 * This holds it to that over every e-mail and phone vector of ../shared/testdata, with labels and
 * several values a record, and checks that a constant of the same field is still validated.
 */
const ctx = (over: Partial<NormalizeContext> = {}): NormalizeContext => ({
  file: 'in.csv',
  row: 1,
  line: 2,
  input: 0,
  strict: false,
  constants: {},
  ...over,
});

const emails = readQuotedTsv('email/isemail-tests.flat.tsv').map((row) => row.address_as_in_xml ?? '');
const phones = readPlainTsv('phone/cases.tsv').map((row) => ({
  input: row.input ?? '',
  region: row.region ?? '',
}));
const shape = contactWriteSchema.shape;

describe('the lists normalizeRecord builds satisfy the write schema', () => {
  /** How many values the lists of `records` kept, each list held to the write schema. */
  const keptInSchema = (records: RecordOutcome[], field: 'contact_emails' | 'contact_phone_numbers') => {
    let kept = 0;
    for (const out of records) {
      const list = out.ok ? out.record.contact[field] : undefined;
      if (list === undefined) continue;
      kept += list.length;
      expect(shape[field].safeParse(list).success, JSON.stringify(list)).toBe(true);
    }
    return kept;
  };

  it('e-mails: every vector, three a record, labelled', () => {
    const outs: RecordOutcome[] = [];
    for (let i = 0; i < emails.length; i += 3) {
      const record = draft({ full: 'Someone', emails: emails.slice(i, i + 3) });
      record.emails.forEach((email, k) => (email.label = ['work', 'Home', 'weird label'][k]!));
      outs.push(normalizeRecord(record, ctx()));
    }
    expect(keptInSchema(outs, 'contact_emails')).toBeGreaterThan(20);
  });

  it('phones: every vector in its region, two a record, labelled', () => {
    const outs: RecordOutcome[] = [];
    for (let i = 0; i < phones.length; i += 2) {
      const pair = phones.slice(i, i + 2);
      const record = draft({ full: 'Someone', phones: pair.map((p) => p.input) });
      record.phones.forEach((phone, k) => (phone.label = ['mobile', 'Office'][k]!));
      const region = pair[0]!.region;
      outs.push(normalizeRecord(record, ctx(region ? { region } : {})));
    }
    expect(keptInSchema(outs, 'contact_phone_numbers')).toBeGreaterThan(30);
  });

  it('still checks a pipeline constant of the same field', () => {
    const out = normalizeRecord(
      draft({ full: 'Someone', fields: { website: 'example.org' } }),
      ctx({ constants: { contact_emails: [{ email: '' }] } }),
    );
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.record.contact.contact_emails).toBeUndefined();
    expect(out.issues.map((issue) => [issue.code, issue.stage])).toContainEqual([
      'invalid_value',
      'validate',
    ]);
  });
});
