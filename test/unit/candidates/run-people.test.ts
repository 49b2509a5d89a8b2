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

describe('candidates: the people of a run', () => {
  it("calls the host's collector once, after the match, before candidates.csv is written", () => {
    const path = somewhere();
    const calls: boolean[] = [];
    const found = twoOfOnePerson().match(path, () => calls.push(existsSync(path)));
    expect(calls).toEqual([false]);
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
});
