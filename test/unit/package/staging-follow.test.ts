import { afterEach, describe, expect, it } from 'vitest';
import type { NormalizedRecord } from '../../../src/core/record.js';
import { Staging, type StageEntry } from '../../../src/package/staging.js';
import { tempDir } from '../../support/temp-dirs.js';

/** A staged record of row `row` with identity `email:<name>` and the given e-mails. */
const entry = (row: number, name: string, emails: string[]): StageEntry => {
  const record: NormalizedRecord = {
    file: 'people.csv',
    row,
    line: row + 1,
    input: 0,
    key: `email:${name}`,
    contact: {
      full_name: name,
      contact_emails: emails.map((email, i) => ({ email, label: 'work', ranking: i + 1 })),
    },
    groups: [],
    customFields: [],
    reminders: [],
  } as NormalizedRecord;
  return { ...record, json: JSON.stringify(record), raw: `${name},${emails.join(';')}` };
};

const rows = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => entry(from + i, `p${from + i}@x.org`, [`p${from + i}@x.org`]));

let staging: Staging | undefined;
afterEach(() => {
  staging?.close();
  staging = undefined;
});

describe('Staging.follow: the load reads the staging while it fills', () => {
  it('hands out a batch only once it is full or reading ended, in first-seen order', async () => {
    staging = new Staging({ dir: tempDir() });
    const batches = staging.follow(3);
    staging.add(rows(1, 2));
    let settled = false;
    const first = batches.next().then((step) => ((settled = true), step));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    staging.add(rows(3, 2));
    expect((await first).value!.map((r: NormalizedRecord) => r.row)).toEqual([1, 2, 3]);
    const second = batches.next();
    staging.end();
    expect((await second).value!.map((r: NormalizedRecord) => r.row)).toEqual([4]);
    expect((await batches.next()).done).toBe(true);
  });

  it('gives back, merged and once, a record handed out before a later duplicate of it was read', async () => {
    staging = new Staging({ dir: tempDir() });
    const batches = staging.follow(2);
    staging.add(rows(1, 2));
    const [handedOut] = [(await batches.next()).value!];
    expect(handedOut.map((r: NormalizedRecord) => r.row)).toEqual([1, 2]);
    // Row 2's identity again, with a second e-mail; row 9 is new and not handed out yet.
    const results = staging.add([entry(8, 'p2@x.org', ['p2@x.org', 'second@x.org']), ...rows(9, 1)]);
    expect(results[0]!.duplicateOf).toEqual({ file: 'people.csv', row: 2 });
    staging.add([entry(10, 'p9@x.org', ['p9@x.org', 'other@x.org'])]);
    staging.end();
    expect((await batches.next()).value!.map((r: NormalizedRecord) => r.row)).toEqual([9]);
    expect((await batches.next()).done).toBe(true);

    const late = [...staging.mergedAfterSent(10)].flat();
    // Row 9 merged before it was handed out: sent whole already, not given back.
    expect(late.map((r) => r.row)).toEqual([2]);
    expect(late[0]!.contact.contact_emails!.map((e) => e.email)).toEqual(['p2@x.org', 'second@x.org']);
    expect([...staging.mergedAfterSent(10)]).toEqual([]);
  });

  it('gives nothing back when everything was staged before it was read (batches)', () => {
    staging = new Staging({ dir: tempDir() });
    staging.add([...rows(1, 2), entry(3, 'p1@x.org', ['p1@x.org', 'b@x.org'])]);
    staging.end();
    expect([...staging.batches(10)].flat().map((r) => r.row)).toEqual([1, 2]);
    expect([...staging.mergedAfterSent(10)]).toEqual([]);
  });
});
