import { afterAll, describe, expect, it } from 'vitest';
import { loadPipeline } from '../../../src/mapping/load.js';
import { assertPhoneRegions, regionForColumn } from '../../../src/run/phone-region.js';
import { tempFiles } from '../readers/read-all.js';

const french = Array.from({ length: 12 }, (_, i) => `06 12 34 56 ${10 + i}`);

describe('regionForColumn: the country numbers without +country are written for', () => {
  it('names FR for French mobiles that fail under US', () => {
    expect(regionForColumn('Portable', french, 'US')).toEqual({
      column: 'Portable',
      sampled: 12,
      failed: 12,
      region: 'FR',
    });
  });

  it('says nothing when the numbers pass, or when only a few fail', () => {
    expect(regionForColumn('Phone', ['(415) 555-2671', '+33 1 42 68 53 00'], 'US')).toBeUndefined();
    const mostlyGood = [...Array.from({ length: 20 }, () => '(415) 555-2671'), ...french.slice(0, 6)];
    expect(regionForColumn('Phone', mostlyGood, 'US')).toBeUndefined();
  });

  it('says nothing when no region reads the failures', () => {
    expect(
      regionForColumn(
        'Phone',
        Array.from({ length: 10 }, () => 'n/a'),
        'US',
      ),
    ).toBeUndefined();
  });

  it('a pipeline with no region: the country domains of the e-mails hint first', () => {
    const german = Array.from({ length: 8 }, (_, i) => `030 1234567${i}`);
    const emails = german.map((_, i) => `p${i}@example.de`);
    expect(regionForColumn('Telefon', german, undefined, { emails })?.region).toBe('DE');
  });
});

describe('regionForColumn with no region to start from', () => {
  it('names only the country the file points to, never a guess', () => {
    const american = Array.from({ length: 8 }, (_, i) => `(415) 555-26${10 + i}`);
    expect(regionForColumn('Phone', american, undefined)).toBeUndefined();
    expect(regionForColumn('Phone', american, undefined, { phones: ['+1 212 555 0147'] })?.region).toBe('US');
  });
});

describe('assertPhoneRegions: the sample of an input', () => {
  const files = tempFiles();
  afterAll(() => files.cleanup());
  const frenchRows = french.map((phone, i) => `P${i},p${i}@example.com,${phone},`).join('\n');
  const header = 'full_name,email,phone,description\n';

  it('stops a run whose first numbers are French under US', async () => {
    const file = files.write('french.csv', `${header}${frenchRows}\n`);
    await expect(
      assertPhoneRegions([file], [await loadPipeline('generic')], undefined),
    ).rejects.toMatchObject({
      code: 'phone_region',
    });
  });

  it('reads no more than the first megabyte: numbers past it are the run’s alone', async () => {
    // One record of a megabyte and more before the French numbers: the sample ends with it.
    const file = files.write(
      'big-first.csv',
      `${header}Big,big@example.com,,${'x'.repeat(1024 * 1024)}\n${frenchRows}\n`,
    );
    await expect(
      assertPhoneRegions([file], [await loadPipeline('generic')], undefined),
    ).resolves.toBeUndefined();
  });

  it('samples nothing once the run is stopping', async () => {
    const file = files.write('french-stopped.csv', `${header}${frenchRows}\n`);
    const stopping = new AbortController();
    stopping.abort('SIGTERM');
    await expect(
      assertPhoneRegions([file], [await loadPipeline('generic')], undefined, stopping.signal),
    ).resolves.toBeUndefined();
  });
});
