import { describe, expect, it } from 'vitest';
import { shippedNicknames } from '../../../src/candidates/nicknames.js';
import { localPart, prepare, PrepareCache } from '../../../src/candidates/prepare.js';
import { fold, squash } from '../../../src/candidates/text.js';
import { seededRandom } from '../../../src/core/random.js';

const nicknames = shippedNicknames();

describe('candidates: preparing a person', () => {
  it('takes local parts and their digits as splitting and replacing does', () => {
    const random = seededRandom(5);
    const email = () =>
      Array.from({ length: Math.floor(random() * 14) }, () => 'ab1.+@Z9é_'[Math.floor(random() * 10)]).join(
        '',
      );
    const wrong: string[] = [];
    let withDigits = 0;
    for (let k = 0; k < 5_000; k++) {
      const value = email();
      const at = value.lastIndexOf('@');
      const local = squash((at < 0 ? value : value.slice(0, at)).split('+')[0]);
      if (localPart(value) !== local) wrong.push(`local part of ${value}`);
      const prepared = prepare({ emails: [value] }, nicknames);
      const digits = local === '' ? [] : [local.replace(/\D+/gu, '')];
      if (
        prepared.localDigits.join('|') !== digits.join('|') ||
        prepared.localDigits.length !== digits.length
      )
        wrong.push(`digits of ${value}`);
      if (digits[0]) withDigits++;
    }
    expect(wrong).toEqual([]);
    expect(withDigits).toBeGreaterThan(1_000);
  });

  it('squashes values already folded, and those one character from it, as folding does', () => {
    const printable = Array.from({ length: 0x7f - 0x20 }, (_, k) => String.fromCharCode(0x20 + k));
    const wrong: string[] = [];
    for (const x of [...printable, 'é', '\n'])
      for (const value of [x, `ab${x}`, `${x}09z`, `a${x}${x}1`])
        if (squash(value) !== fold(value).replaceAll(' ', '')) wrong.push(value);
    expect(wrong).toEqual([]);
    expect(squash('bsmith84')).toBe('bsmith84');
  });

  it("keeps a phone's digits and plus signs, six or more, as written or as E.164", () => {
    const phones = [
      '+16462011001',
      '212.202.1002',
      '(415) 555-1010',
      '+44 20 7946 0958',
      '12345',
      '+12345',
      'x',
      '123456',
    ];
    const prepared = prepare({ phones }, nicknames);
    expect(prepared.phones).toEqual([
      '+16462011001',
      '2122021002',
      '4155551010',
      '+442079460958',
      '+12345',
      '123456',
    ]);
  });

  it('gives names written differently that fold alike one preparation, first and last names apart', () => {
    const cache = new PrepareCache(nicknames);
    const jose = prepare({ firstName: 'José', lastName: 'Bob' }, nicknames, cache);
    const again = prepare({ firstName: 'JOSE', lastName: 'Bob' }, nicknames, cache);
    expect(again.firstCodes).toBe(jose.firstCodes);
    expect(again.firstRoots).toBe(jose.firstRoots);
    const bob = prepare({ firstName: 'Bob', lastName: 'Jose' }, nicknames, cache);
    expect(bob.first).toBe('bob');
    expect(bob.firstRoots).toContain('robert');
    expect(bob.lastCodes).toEqual(jose.firstCodes);
    expect(jose.lastCodes).toEqual(bob.firstCodes);
  });
});
