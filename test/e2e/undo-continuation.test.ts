import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { people, writeGenericCsv } from './generic-csv.js';
import {
  killGenericRun,
  loadInProcess,
  readReport,
  runCli,
  startService,
  tempDir,
  type TestService,
} from './harness.js';
import { listRuns } from '../../src/run/runs-list.js';
import { undoOn } from '../support/in-process-runs.js';

/**
 * A run stopped (kill -9 here; Ctrl-C alike) and continued by the same command is one import for
 * its user. `undo` of the first is refused while the continuation stands, naming the runs to undo
 * first (docs/design.md "Undo"); undone newest first, every person of the import is archived,
 * counted at the service. The refusal is the command line's (its exit code and message); the
 * continuation and the undos that are taken run in this process.
 */
let svc: TestService | undefined;
afterAll(async () => {
  await svc?.close();
});

const ROWS = 60;

describe('undo of a run that was stopped and continued', () => {
  it('is refused naming the continuation; undone newest first, the whole import is taken back', async () => {
    svc = await startService();
    const dir = tempDir();
    const file = writeGenericCsv(dir, 'people.csv', people(ROWS));
    const state = join(dir, 'state');
    const env = { CONTACT_IMPORT_API_KEY: svc.key };
    // The first run is killed after its second chunk was answered: part of the people stored.
    const killed = await killGenericRun(
      {
        file,
        target: svc.service.url,
        stateDir: state,
        outDir: 'first',
        chunkSize: 10,
        killAt: 'create-done:2',
      },
      { cwd: dir, env },
    );
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    const storedByFirst = (await svc.client.local.contacts()).length;
    expect(storedByFirst).toBeGreaterThan(0);
    expect(storedByFirst).toBeLessThan(ROWS);

    const cli = (args: string[]) => runCli([...args, '--state', state], { cwd: dir, env });
    // What `runs` lists (the command line's `runs --json`: test/e2e/sync-weeks.test.ts).
    const [first] = listRuns(state);
    expect(first).toMatchObject({ status: 'running' });

    // The same run continues it and completes.
    const next = await loadInProcess(svc, file, { stateDir: state, outDir: join(dir, 'next') });
    expect(next.report.exitCode, JSON.stringify(next.report.error)).toBe(0);
    const nextId = readReport(join(dir, 'next')).runId;
    expect((await svc.client.local.contacts()).length).toBe(ROWS);

    // Undo of the first alone: refused, one line naming the continuation and the commands.
    const before = svc.service.requestCounts();
    const refused = await cli(['undo', first!.runId, '--target', svc.service.url, '--out', join(dir, 'u0')]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain(
      `undo_refused: run ${first!.runId} was stopped and continued by run ${nextId}`,
    );
    expect(refused.stderr).toContain(
      `contact-import undo ${nextId} --state ${state} && contact-import undo ${first!.runId}`,
    );
    // Nothing was sent, nothing archived.
    expect(svc.service.requestCounts()).toEqual(before);
    expect((await svc.client.local.contacts()).filter((c) => c.is_archived)).toHaveLength(0);

    // Newest first, as named: the continuation, then the first run; the whole import is archived.
    const undoNext = await undoOn(svc, nextId, { stateDir: state, outDir: join(dir, 'u1') });
    expect(undoNext.report.exitCode, JSON.stringify(undoNext.report.error)).toBe(0);
    const undoFirst = await undoOn(svc, first!.runId, { stateDir: state, outDir: join(dir, 'u2') });
    expect(undoFirst.report.exitCode, JSON.stringify(undoFirst.report.error)).toBe(0);
    const contacts = await svc.client.local.contacts();
    expect(contacts).toHaveLength(ROWS);
    expect(contacts.filter((c) => c.is_archived)).toHaveLength(ROWS);
  }, 180_000);
});
