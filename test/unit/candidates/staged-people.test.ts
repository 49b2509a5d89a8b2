import { describe, expect, it } from 'vitest';
import { shippedNicknames } from '../../../src/candidates/nicknames.js';
import { prepare, PrepareCache } from '../../../src/candidates/prepare.js';
import { StagedPeople } from '../../../src/candidates/staged-people.js';
import type { PersonFields } from '../../../src/candidates/types.js';
import { seededRandom } from '../../../src/core/random.js';

const nicknames = shippedNicknames();

describe('candidates: people staged, then prepared when matching starts', () => {
  it('prepares every person as preparing each as it is read does, in the order added', () => {
    const random = seededRandom(11);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
    const names = ['Bob', 'Robert', 'José', 'Jose', 'Smith', "O'Brien", '', null, undefined];
    const emails = [
      'bob.smith84@example.com',
      ' Bob.Smith+news@Example.com ',
      'rsmith@x.org',
      'obrien@x.ie',
      '',
      '  ',
      'x@y',
    ];
    const phones = ['+14155550100', '(415) 555-0101', '12', '', '+44 20 7946 0958'];
    const people: PersonFields[] = [];
    for (let k = 0; k < 2_000; k++)
      people.push({
        firstName: pick(names),
        lastName: pick(names),
        fullName: pick(['Smith, Bob', 'Bob J. Smith', 'Cher', '', null]),
        emails: Array.from({ length: Math.floor(random() * 4) }, () => pick(emails)),
        phones:
          random() < 0.2 ? undefined : Array.from({ length: Math.floor(random() * 4) }, () => pick(phones)),
        company: pick(['Acme, Inc.', 'ACME Corporation', '', null]),
        jobTitle: pick(['Chief Engineer', 'CEO', undefined]),
        birthday: pick(['1957-05-10', '--05-10', '1990-13-01', '', undefined]),
        street: pick(['12 High St', '', undefined]),
        postcode: pick(['SW1A 1AA', '', undefined]),
        city: pick(['Leeds', 'São Paulo', undefined]),
      });
    const staged = new StagedPeople(new PrepareCache(nicknames));
    for (const person of people) staged.add(person);
    expect(staged.size).toBe(people.length);
    const expected = people.map((person) => prepare(person, nicknames, new PrepareCache(nicknames)));
    const prepared = staged.prepareAll();
    expect(prepared).toEqual(expected);
    expect(prepared.filter((p) => p.emails.length >= 3).length).toBeGreaterThan(0);
    expect(prepared.filter((p) => p.localsFromName).length).toBeGreaterThan(0);
    // Let go once prepared.
    expect(staged.size).toBe(0);
  });
});
