import { afterEach, describe, expect, it } from 'vitest';
import type { NormalizedRecord } from '../../../src/core/record.js';
import { Staging, type StageEntry } from '../../../src/package/staging.js';
import { tempDir } from '../../support/temp-dirs.js';

const entry = (row: number, key: string, emails: string[]): StageEntry => {
  const record = {
    file: 'people.csv',
    row,
    line: row + 1,
    input: 0,
    key,
    contact: { contact_emails: emails.map((email, i) => ({ email, ranking: i + 1 })) },
    groups: [],
    customFields: [],
    reminders: [],
  } as NormalizedRecord;
  return { ...record, json: JSON.stringify(record), raw: `row ${row}` };
};

let staging: Staging | undefined;
afterEach(() => {
  staging?.close();
  staging = undefined;
});

describe('Staging', () => {
  it('merges every later duplicate into the first record, each onto what the one before left', () => {
    staging = new Staging({ dir: tempDir() });
    const results = [
      ...staging.add([entry(1, 'email:a@x.org', ['a@x.org']), entry(2, 'email:z@x.org', ['z@x.org'])]),
      ...staging.add([entry(3, 'email:a@x.org', ['a@x.org', 'b@x.org'])]),
      ...staging.add([entry(4, 'email:a@x.org', ['a@x.org', 'c@x.org'])]),
    ];
    expect(results.map((r) => r.duplicateOf?.row)).toEqual([undefined, undefined, 1, 1]);
    const staged = [...staging.batches(10)].flat();
    expect(staged.map((r) => r.row)).toEqual([1, 2]);
    expect(staged[0]!.contact.contact_emails!.map((e) => e.email)).toEqual(['a@x.org', 'b@x.org', 'c@x.org']);
    expect(staging.sourceOf({ input: 0, row: 1 })).toBe('row 1');
  });

  it('keeps only identities and first places when keys-only', () => {
    staging = new Staging({ dir: tempDir(), keysOnly: true });
    const results = staging.add([
      entry(1, 'email:a@x.org', ['a@x.org']),
      entry(2, 'email:a@x.org', ['a@x.org']),
      entry(3, 'email:a@x.org', ['a@x.org']),
    ]);
    expect(results.map((r) => r.duplicateOf)).toEqual([
      undefined,
      { file: 'people.csv', row: 1 },
      { file: 'people.csv', row: 1 },
    ]);
    expect(staging.size).toBe(1);
    expect([...staging.places(10)].flat().map((p) => p.row)).toEqual([1]);
  });

  it('gives the staged keys in first-seen order, duplicates and records merged apart left out', () => {
    for (const keysOnly of [false, true]) {
      staging = new Staging({ dir: tempDir(), keysOnly });
      staging.add([
        entry(1, 'email:c@x.org', ['c@x.org']),
        entry(2, 'email:a@x.org', ['a@x.org']),
        entry(3, 'email:c@x.org', ['c@x.org']),
        entry(4, 'email:b@x.org', ['b@x.org']),
        entry(5, 'email:d@x.org', ['d@x.org']),
      ]);
      if (!keysOnly) staging.mergeApart([{ into: 1, from: 3 }]);
      expect([...staging.keys()]).toEqual(
        keysOnly
          ? ['email:c@x.org', 'email:a@x.org', 'email:b@x.org', 'email:d@x.org']
          : ['email:c@x.org', 'email:a@x.org', 'email:d@x.org'],
      );
      staging.close();
    }
    staging = undefined;
  });
});
