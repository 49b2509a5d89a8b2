import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { readReport, runHooked } from '../e2e/harness.js';
import { runImport } from '../../src/run/run.js';
import { perTest } from '../support/per-test.js';
import { startRewritingProxy } from '../support/rewriting-proxy.js';
import { openLedger } from '../../src/state/index.js';

const t = perTest();

/*
 * The killed run is a process of its own (test/support/hooked-run.mjs); week 1 before it and the
 * same run after it run in this one, through the proxy that records what each sent.
 */

const writeStaff = (dir: string, name: string, from: number, to: number): string => {
  const path = join(dir, name);
  const rows = Array.from({ length: to - from }, (_, k) => [
    `Staff Member${from + k}`,
    `staff.${from + k}@example.com`,
  ]);
  writeFileSync(path, stringify([['full_name', 'email'], ...rows]));
  return path;
};

/** The contact ids each E1 element set `is_archived: true` for, in the order they were sent. */
const archivesSent = (bodies: { method: string; path: string; body: Buffer }[]): string[] =>
  bodies
    .filter((b) => b.method === 'PUT' && b.path === '/v1/contacts/')
    .flatMap((b) => JSON.parse(b.body.toString()) as { contactId: string; data: { is_archived?: boolean } }[])
    .filter((e) => e.data.is_archived === true)
    .map((e) => e.contactId);

describe('a sync run killed in its archive phase', { timeout: 180_000 }, () => {
  it('is finished by the same command: every archive sent, applied and journaled once, nothing else touched', async () => {
    const svc = await t.start();
    const dir = t.dir();
    const proxy = await startRewritingProxy(svc.service.url);
    t.closeLater(() => proxy.close());
    const state = join(dir, 'state');
    const env = { CONTACT_IMPORT_API_KEY: svc.key };
    const syncRun = (file: string, out: string, settings: { maxArchive?: string; chunkSize?: number } = {}) =>
      runImport({
        pipeline: 'generic',
        inputs: [file],
        sync: 'hr',
        ...settings,
        target: { url: proxy.url, apiKey: svc.key },
        stateDir: state,
        outDir: join(dir, out),
      });
    const w1 = await syncRun(writeStaff(dir, 'week1.csv', 0, 60), 'w1');
    expect(w1.report.exitCode, JSON.stringify(w1.report.error)).toBe(0);
    const before = new Map((await svc.client.local.contacts()).map((c) => [c.id, c]));

    // Week 2: the first 30 left; archived 10 a chunk. Killed once the second chunk was applied.
    const week2 = writeStaff(dir, 'week2.csv', 30, 60);
    const run = {
      pipeline: 'generic',
      inputs: [week2],
      target: proxy.url,
      stateDir: state,
      sync: 'hr',
      maxArchive: '50%',
      chunkSize: 10,
    };
    const killed = await runHooked(
      { run: { ...run, outDir: join(dir, 'killed') }, killAt: 'sync-archived:2' },
      { cwd: dir, env },
    );
    expect(killed.signal, `${killed.code} ${killed.stderr} ${killed.stdout}`).toBe('SIGKILL');
    // Week 1 archived nothing: every archive the proxy saw so far is the killed run's.
    const sentByKilled = archivesSent(proxy.bodies);
    expect(sentByKilled).toHaveLength(20);
    const writesBefore = proxy.bodies.length;

    const again = await syncRun(week2, 'again', { maxArchive: '50%', chunkSize: 10 });
    expect(again.report.exitCode, JSON.stringify(again.report.error)).toBe(0);
    expect(readReport(join(dir, 'again'))).toMatchObject({
      totals: { unchanged: 30 },
      sync: { archived: 20 },
    });
    // The rerun sent archives only, and only the last chunk: the chunk in flight when the run was
    // killed was journaled before it left, and the target showed it applied, so it was not resent.
    const rerun = proxy.bodies.slice(writesBefore).filter((b) => b.method !== 'GET');
    expect(rerun.every((b) => b.method === 'PUT' && b.path === '/v1/contacts/')).toBe(true);
    const sentByRerun = archivesSent(rerun);
    expect(sentByRerun).toHaveLength(10);
    // Counted at the service: 30 archives in all, each contact once.
    const allArchives = [...sentByKilled, ...sentByRerun];
    expect(allArchives).toHaveLength(30);
    expect(new Set(allArchives).size).toBe(30);
    const after = await svc.client.local.contacts();
    const left = after.filter((c) => Number(/\d+$/.exec(String(c.full_name))![0]) < 30);
    expect(left.every((c) => c.is_archived)).toBe(true);
    // The 30 who stayed are exactly as week 1 left them.
    for (const c of after.filter((c) => !left.includes(c))) expect(c).toEqual(before.get(c.id));
    // Each archive is journaled once, under the run that recorded it: one undo each takes it back.
    const ledger = openLedger({ dir: state });
    try {
      const journaled = ledger
        .allRuns()
        .flatMap((r) => ledger.syncEffects(r.runId))
        .filter((e) => e.kind === 'archived');
      expect(journaled.map((e) => e.contactId).sort()).toEqual(left.map((c) => c.id).sort());
    } finally {
      ledger.close();
    }
  });
});
