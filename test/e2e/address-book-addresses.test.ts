import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './harness.js';
import { perTest } from '../support/per-test.js';

const t = perTest();

describe('address-book-csv addresses', () => {
  it('loads every "Address N - Formatted" column as one address line each, in order', async () => {
    const svc = await t.start();
    const dir = t.dir();
    writeFileSync(
      join(dir, 'contacts.csv'),
      'First Name,Last Name,E-mail 1 - Value,Address 1 - Formatted,Address 2 - Formatted\n' +
        'Ann,Lee,ann@example.com,"1 Main St\nSpringfield",Other Rd 2\n',
    );
    const result = await runCli(
      ['run', 'contacts.csv', '--target', svc.service.url, '--state', join(dir, 'state'), '--out', 'out'],
      { cwd: dir, env: { CONTACT_IMPORT_API_KEY: svc.key } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).toContain('address-book-csv');
    const [ann] = await svc.client.local.contacts();
    expect(ann?.legacy_contact_addresses).toEqual([
      { formatted: '1 Main St Springfield' },
      { formatted: 'Other Rd 2' },
    ]);
  });
});
