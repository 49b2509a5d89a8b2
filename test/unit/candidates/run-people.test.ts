import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CandidatePeople } from '../../../src/candidates/people.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const somewhere = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'run-people-'));
  dirs.push(dir);
  return join(dir, 'candidates.csv');
};

const twoOfOnePerson = (): CandidatePeople => {
  const people = new CandidatePeople();
  people.add('crm.csv', 2, {
    firstName: 'Robert',
    lastName: 'Smith',
    emails: ['robert.smith@acme.example'],
    phones: ['+15555550101'],
    company: 'Acme Inc.',
    birthday: '1984-03-12',
  });
  people.add('book.csv', 7, {
    firstName: 'Bob',
    lastName: 'Smith',
    emails: ['bsmith84@mail.example'],
    phones: ['+15555550101'],
    company: 'ACME Corporation',
    birthday: '1984-03-12',
  });
  people.add('book.csv', 8, { firstName: 'Ana', lastName: 'Lopez', emails: ['ana@else.example'] });
  return people;
};

/** Ten thousand people of distinct names and e-mails. */
const manyPeople = (): CandidatePeople => {
  const people = new CandidatePeople();
  for (let i = 0; i < 10_000; i++)
    people.add('many.csv', i + 2, {
      firstName: `Given${i.toString(36)}`,
      lastName: `Family${(i * 7919).toString(36)}`,
      emails: [`person${i}@many.example`],
    });
  return people;
};

describe('candidates: the people of a run', () => {
  it("calls the host's collector once for many people, after the match, before candidates.csv is written", () => {
    const path = somewhere();
    const calls: boolean[] = [];
    manyPeople().match(path, () => calls.push(existsSync(path)));
    expect(calls).toEqual([false]);
  });

  it("leaves the host's collector alone for a few people: a full collection costs more than it frees", () => {
    const path = somewhere();
    const calls: boolean[] = [];
    const found = twoOfOnePerson().match(path, () => calls.push(existsSync(path)));
    expect(calls).toEqual([]);
    expect(found.pairs).toHaveLength(1);
    expect(found.pairs[0]).toMatchObject({ a: 0, b: 1 });
    expect(readFileSync(path, 'utf8')).toContain('crm.csv,2,book.csv,7,,Robert Smith,Bob Smith');
  });

  it('finds the same pairs without a collector', () => {
    const withCollector = twoOfOnePerson().match(somewhere(), () => undefined);
    const without = twoOfOnePerson().match(somewhere());
    expect(without.pairs).toEqual(withCollector.pairs);
    expect(without.counts).toEqual(withCollector.counts);
  });

  it('matches once: the staged people are let go then, so none is added or matched after', () => {
    const people = twoOfOnePerson();
    people.match(somewhere());
    expect(() => people.add('book.csv', 9, { firstName: 'Ann', lastName: 'Lee' })).toThrow(
      /after they were matched/,
    );
    expect(() => people.match(somewhere())).toThrow(/matched twice/);
    // What candidates.csv shows of each person is kept.
    expect(people.nameAt(1)).toBe('Bob Smith');
  });
});
