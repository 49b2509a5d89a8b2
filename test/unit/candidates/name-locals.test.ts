import jaroWinkler from 'jaro-winkler';
import { describe, expect, it } from 'vitest';
import { madeFromName, NameLocals, type NameParts } from '../../../src/candidates/name-locals.js';
import { seededRandom } from '../../../src/core/random.js';

/** The rule as first written: every form of the name made, each compared with the letters. */
const madeFromNameAsWritten = (local: string, person: NameParts): boolean => {
  const letters = local.replace(/\d+/gu, '');
  const { first, last } = person;
  if (letters === '' || first === '' || last === '') return false;
  const made = [
    first + last,
    last + first,
    first[0]! + last,
    first + last[0]!,
    last + first[0]!,
    last[0]! + first,
  ];
  made.push(first, last);
  for (const root of person.firstRoots) made.push(root + last, root[0]! + last);
  return made.some((form) => form === letters || jaroWinkler(form, letters) >= 0.92);
};

describe('candidates: local parts made from the name', () => {
  it('answers as the rule does, asked once or again, whatever short cut it takes', () => {
    const random = seededRandom(11);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
    const people: NameParts[] = [
      { first: 'robert', last: 'smith', firstRoots: ['robert'] },
      { first: 'bob', last: 'smith', firstRoots: ['bob', 'robert'] },
      { first: 'ana', last: 'li', firstRoots: ['ana'] },
      { first: '', last: 'smith', firstRoots: [] },
      { first: 'jose', last: 'weiß', firstRoots: ['jose'] },
    ];
    const locals = [
      'robertsmith',
      'robertsmith84',
      '84robert1smith',
      'robertsmithx',
      'rsmith',
      'smithr',
      'bsmith',
      'robertsmiht',
      'ali',
      'anali7',
      'josewei2',
      'joseweiß',
      'tigerfan',
      '1984',
      '',
      'smith',
    ];
    const remembered = new NameLocals();
    const wrong: string[] = [];
    let made = 0;
    for (let k = 0; k < 2_000; k++) {
      const local = pick(locals) + (random() < 0.3 ? String(Math.floor(random() * 100)) : '');
      const person = pick(people);
      const expected = madeFromNameAsWritten(local, person);
      if (madeFromName(local, person) !== expected) wrong.push(`${local} ${person.first} ${person.last}`);
      if (remembered.madeFromName(local, person) !== expected) wrong.push(`again: ${local} ${person.first}`);
      if (expected) made++;
    }
    expect(wrong).toEqual([]);
    expect(made).toBeGreaterThan(200);
    expect(made).toBeLessThan(1_800);
  });
});
