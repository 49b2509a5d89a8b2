import { describe, expect, it } from 'vitest';
import { ALICE, ledgerFixture } from '../unit/state/fixtures/ledgers.js';

/**
 * Performance (npm run test:perf, not npm test): a wall-clock bound that holds on a quiet machine.
 * What it finds is checked in test/unit/state/ledger.test.ts.
 */
const ledgers = ledgerFixture('ledger-perf');

describe('the ledger at scale', () => {
  it('looks up 200,000 keys in under 5 s and writes 100 rows in under 1 s', () => {
    const scope = ledgers.open().scope(ALICE);
    const entries = Array.from({ length: 200_000 }, (_, i) => ({
      key: `person-${i}@example.org`,
      contactId: `c${i}`,
      hash: `h${i}`,
    }));
    scope.putContacts(entries);
    const keys = entries.map((entry) => entry.key);
    const started = performance.now();
    expect(scope.getContacts(keys).size).toBe(200_000);
    expect(performance.now() - started).toBeLessThan(5_000);

    const writeStarted = performance.now();
    scope.putContacts(entries.slice(0, 100).map((entry) => ({ ...entry, hash: `${entry.hash}-v2` })));
    expect(performance.now() - writeStarted).toBeLessThan(1_000);
  });
});
