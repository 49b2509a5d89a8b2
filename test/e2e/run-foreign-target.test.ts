import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { perTest } from '../support/per-test.js';
import { expectExactlyLoaded } from '../reliability/helpers.js';
import { people, writeGenericCsv } from './generic-csv.js';
import { loadInProcess, readReport } from './harness.js';

/**
 * A run into a target another ledger loaded, at a fiftieth of the size first measured, with
 * chunks of 20 (as many chunks as at a tenth with chunks of 100): a target holding contacts from
 * another ledger and a file that overlaps part
 * of them: one exact search per record the ledger does not know, plus the chunks; the overlaps
 * updated, nothing stored twice. Both runs in this process: the report and the service are what is
 * checked.
 */
const each = perTest();

const FOREIGN = 100;
const ROWS = 200;
const OVERLAP = 50;
const CHUNK = 20;

describe('a run into a target that another ledger loaded', () => {
  it(
    'searches each unknown record once, updates the overlap and doubles nothing',
    { timeout: 150_000 },
    async () => {
      const dir = each.dir();
      const svc = await each.start();
      const other = await loadInProcess(
        svc,
        writeGenericCsv(dir, 'other.csv', people(FOREIGN)),
        { stateDir: join(dir, 'other-state'), outDir: join(dir, 'other') },
        { chunkSize: CHUNK },
      );
      expect(other.report.exitCode, JSON.stringify(other.report.error)).toBe(0);

      // Rows FOREIGN - OVERLAP .. FOREIGN + ROWS - OVERLAP: the first OVERLAP are on the target already.
      const rows = people(ROWS, FOREIGN - OVERLAP).map((p) => ({ ...p, title: `Lead ${p.title}` }));
      const result = await loadInProcess(
        svc,
        writeGenericCsv(dir, 'mine.csv', rows),
        { stateDir: join(dir, 'my-state'), outDir: join(dir, 'mine') },
        { chunkSize: CHUNK },
      );
      expect(result.report.exitCode, JSON.stringify(result.report.error)).toBe(0);
      const report = readReport(join(dir, 'mine'));
      expect(report.totals).toMatchObject({ updated: OVERLAP, created: ROWS - OVERLAP });
      const searches = report.requests.byEndpoint['GET /v1/search/contacts']?.sent ?? 0;
      // The probe plus at most one exact search per record (each has one e-mail).
      expect(searches).toBeLessThanOrEqual(ROWS + 1);
      // Candidates against the target: one name search per record to create.
      const nameSearches = report.requests.byEndpoint['GET /v1/contacts/search']?.sent ?? 0;
      expect(nameSearches).toBeLessThanOrEqual(ROWS - OVERLAP);
      const chunks = Math.ceil(OVERLAP / CHUNK) + Math.ceil((ROWS - OVERLAP) / CHUNK);
      expect(report.requests.sent - searches - nameSearches).toBeLessThanOrEqual(chunks + 10);
      await expectExactlyLoaded(svc.client, [...people(FOREIGN - OVERLAP), ...rows]);
    },
  );
});
