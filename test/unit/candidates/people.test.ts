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
});
