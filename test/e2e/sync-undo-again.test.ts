import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { readReport, type TestService } from './harness.js';
import { runAsCli, undoAsCli } from './cli-in-process.js';
import { perTest } from '../support/per-test.js';

const t = perTest();

const HEADER = ['full_name', 'email', 'email_2', 'phone', 'job_title'];

/** Six people; week 2: 0 left, 1 dropped the second e-mail, 2 lost the title. */
const writeWeek = (dir: string, name: string, week2: boolean): string => {
  const rows = [0, 1, 2, 3, 4, 5]
    .filter((i) => !(week2 && i === 0))
    .map((i) => [
      `Undo Person${i}`,
      `undo.${i}@example.com`,
      week2 && i === 1 ? '' : `undo.${i}.home@example.org`,
      `(415) 555-${1000 + i}`,
      week2 && i === 2 ? '' : `Title ${i}`,
    ]);
  const path = join(dir, name);
  writeFileSync(path, stringify([HEADER, ...rows]));
  return path;
};

/** Requests the service received so far, by `METHOD /route`. */
const counted = (svc: TestService) => svc.service.requestCounts();
const delta = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(after)
      .filter(([route]) => !route.startsWith('GET'))
      .map(([route, n]) => [route, n - (before[route] ?? 0)] as const)
      .filter(([, n]) => n > 0),
  );

// The runs and the undo go through the library in this process, as `run generic <file> --sync hr`
// and `undo <run>` hand them to it: what is checked is what they sent and left at the service.
describe('undo of a sync run puts the scope back too', () => {
  it('week 2, undo, week 2 again: the same archive, removal and clear are sent again', async () => {
    const svc = await t.start();
    const dir = t.dir();
    const sync = async (file: string, out: string) =>
      (
        await runAsCli({
          cwd: dir,
          svc,
          pipeline: 'generic',
          inputs: [file],
          sync: 'hr',
          state: 'state',
          out,
        })
      ).report;
    expect((await sync(writeWeek(dir, 'w1.csv', false), 'w1')).exitCode).toBe(0);
    const week2 = writeWeek(dir, 'w2.csv', true);
    const state = async () =>
      (await svc.client.local.contacts())
        .map((c) => [c.full_name, c.is_archived, c.contact_emails.length, c.job_title] as const)
        .sort();

    let before = counted(svc);
    const first = await sync(week2, 'w2');
    expect(first.exitCode, JSON.stringify(first.error)).toBe(0);
    const firstSent = delta(before, counted(svc));
    const week2State = await state();
    const sync2 = { scope: 'hr', archived: 1, unarchived: 0, valuesRemoved: 1, fieldsCleared: 1 };
    expect(readReport(join(dir, 'w2')).sync).toEqual(sync2);
    expect(firstSent['PUT /api/rest/contacts/:id']).toBe(1);

    const undo = await undoAsCli({ cwd: dir, svc, run: 'w2', state: 'state', out: 'undo' });
    expect(undo.report.exitCode, JSON.stringify(undo.report)).toBe(0);
    expect(await state()).toEqual([
      ['Undo Person0', false, 2, 'Title 0'],
      ['Undo Person1', false, 2, 'Title 1'],
      ['Undo Person2', false, 2, 'Title 2'],
      ['Undo Person3', false, 2, 'Title 3'],
      ['Undo Person4', false, 2, 'Title 4'],
      ['Undo Person5', false, 2, 'Title 5'],
    ]);

    before = counted(svc);
    const again = await sync(week2, 'again');
    expect(again.exitCode, JSON.stringify(again.error)).toBe(0);
    expect(readReport(join(dir, 'again')).sync).toEqual(sync2);
    // The removal went through E11 again: the ledger compared with what the undo left, not with
    // what the first week 2 sent (the undo's own load half may make the load send an update more).
    const againSent = delta(before, counted(svc));
    expect(againSent['PUT /api/rest/contacts/:id']).toBe(1);
    expect(againSent['PUT /v1/contacts/']).toBeGreaterThanOrEqual(firstSent['PUT /v1/contacts/']!);
    expect(await state()).toEqual(week2State);
  }, 180_000);
});
