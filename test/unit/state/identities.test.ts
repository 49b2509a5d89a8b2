import { describe, expect, it } from 'vitest';
import { ALICE, BOB, ledgerFixture } from './fixtures/ledgers.js';

const ledgers = ledgerFixture('identities');

describe('every identity a loaded record had', () => {
  it('finds the contact by any of them, per scope, the latest record taking an identity over', () => {
    const ledger = ledgers.open();
    const alice = ledger.scope(ALICE);
    alice.putIdentities([
      { contactId: 'c1', identities: ['phone:+14155552671', 'email:ada@example.com'] },
      { contactId: 'c2', identities: ['key:901'] },
    ]);
    expect(
      alice.contactsByIdentity(['email:ada@example.com', 'key:901', 'email:nobody@example.com']),
    ).toEqual(
      new Map([
        ['email:ada@example.com', 'c1'],
        ['key:901', 'c2'],
      ]),
    );
    alice.putIdentities([{ contactId: 'c3', identities: ['key:901'] }]);
    expect(alice.contactsByIdentity(['key:901']).get('key:901')).toBe('c3');
    expect(ledger.scope(BOB).contactsByIdentity(['phone:+14155552671']).size).toBe(0);
  });
});
