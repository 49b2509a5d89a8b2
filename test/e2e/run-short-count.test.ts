import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { perTest } from '../support/per-test.js';
import { expectExactlyLoaded, expectTruthfulReport } from '../reliability/helpers.js';
import { people, writeGenericCsv } from './generic-csv.js';
import { loadInProcess, readReport } from './harness.js';

/**
 * An E1 count that comes up short is bisected, not resolved one E2 per element. Both
 * runs in this process: the second's report and the service are what is checked.
 */
const each = perTest();

const ROWS = 400;
const CHUNK = 100;
const GONE = [7, 130, 131, 399];

describe('a chunk with contacts gone from the target', () => {
  it('finds them in O(log chunk) requests each and creates them again', { timeout: 150_000 }, async () => {
    const dir = each.dir();
    const svc = await each.start();
    const rows = people(ROWS);
    const run = (file: string, out: string) =>
      loadInProcess(
        svc,
        file,
        { stateDir: join(dir, 'state'), outDir: join(dir, out) },
        { chunkSize: CHUNK },
      );
    const first = await run(writeGenericCsv(dir, 'one.csv', rows), 'one');
    expect(first.report.exitCode, JSON.stringify(first.report.error)).toBe(0);

    const stored = await svc.client.local.contacts();
    const idOf = new Map(stored.map((c) => [c.contact_emails[0]!.email, c.id]));
    for (const i of GONE) {
      const id = idOf.get(rows[i]!.email.toLowerCase())!;
      const answer = await fetch(`${svc.service.url}/_local/contacts/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${svc.key}` },
      });
      expect(answer.status).toBe(200);
    }

    // Every record changed: every chunk is an E1; four of its contacts are gone.
    const changed = rows.map((p) => ({ ...p, title: `Senior ${p.title}` }));
    const second = await run(writeGenericCsv(dir, 'two.csv', changed), 'two');
    expect(second.report.exitCode, JSON.stringify(second.report.error)).toBe(0);
    const report = readReport(join(dir, 'two'));
    expect(report.totals).toMatchObject({ updated: ROWS - GONE.length, created: GONE.length });
    const byEndpoint = report.requests.byEndpoint;
    expect(byEndpoint['PUT /v1/contacts/{id}']?.sent ?? 0, 'no E2 per element').toBe(0);
    const bisections = (byEndpoint['PUT /v1/contacts/']?.sent ?? 0) - ROWS / CHUNK;
    expect(bisections).toBeGreaterThan(0);
    expect(bisections, JSON.stringify(byEndpoint)).toBeLessThanOrEqual(GONE.length * 2 * Math.log2(CHUNK));
    expectTruthfulReport(report, await expectExactlyLoaded(svc.client, changed), ROWS);
  });
});
