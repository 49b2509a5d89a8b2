import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nameOf } from '../../../src/candidates/csv.js';
import { CandidatePeople } from '../../../src/candidates/people.js';
import type { PersonFields } from '../../../src/candidates/types.js';

describe('candidates: the people of a run', () => {
  it('shows each person by the name as written, however many share it or how many names there are', () => {
    const people = new CandidatePeople();
    const added: PersonFields[] = [];
    const add = (person: PersonFields) => {
      people.add('a.csv', added.length + 2, person);
      added.push(person);
    };
    for (let k = 0; k < 3; k++) {
      add({ firstName: 'Bob', lastName: 'Smith' });
      add({ firstName: 'Bob', lastName: null, fullName: 'Robert Smith' });
      add({ firstName: '', lastName: 'Smith' });
      add({ lastName: 'Bob' });
      add({ firstName: null, lastName: undefined, fullName: 'Smith, Bob' });
      add({ firstName: '', lastName: '' });
    }
    // More distinct names than are kept for sharing.
    for (let k = 0; k < 25_000; k++) add({ firstName: `F${k % 50}`, lastName: `L${k}` });
    add({ firstName: 'Bob', lastName: 'Smith' });
    expect(people.size).toBe(added.length);
    const wrong = added.filter((person, i) => people.nameAt(i) !== nameOf(person)).map((p) => nameOf(p));
    expect(wrong).toEqual([]);
    expect(people.nameAt(0)).toBe('Bob Smith');
    expect(people.nameAt(1)).toBe('Bob');
    expect(people.nameAt(4)).toBe('Smith, Bob');
    expect(people.nameAt(5)).toBe('');
    expect(people.nameAt(added.length - 1)).toBe('Bob Smith');
  });

  it('shows each person by the first e-mail as written, before the match and after it', () => {
    const people = new CandidatePeople();
    const emails = [
      ['bob@x.org', 'b@y.org'],
      [' Bob@X.org'],
      ['  ', 'rob@x.org'],
      [],
      undefined,
      ['用户@例子.cn'],
      ['jürgen@bücher.de'],
      ['Jürgen@Bücher.de'],
      [''],
      ['BOB@x.org'],
    ];
    emails.forEach((list, i) =>
      people.add('a.csv', i + 2, { firstName: 'Bob', lastName: 'Smith', emails: list }),
    );
    const expected = emails.map((list) => list?.[0] ?? '');
    const shown = (): string[] => expected.map((_, i) => people.emailAt(i));
    expect(shown()).toEqual(expected);
    const dir = mkdtempSync(join(tmpdir(), 'people-'));
    try {
      people.match(join(dir, 'candidates.csv'));
      expect(shown()).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
