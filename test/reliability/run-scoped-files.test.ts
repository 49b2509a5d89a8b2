import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_WORK_FOLDER } from '../../src/state/index.js';
import { people, writeGenericCsv } from '../e2e/generic-csv.js';
import { runCli, runHooked, tempDir } from '../e2e/harness.js';

/**
 * A run keeps its scratch files (the staged people, their source rows, spilled issues) in its state
 * directory, never in the system's temp folder, and the next run removes what a killed one left.
 * Each killed run is SIGKILLed at a planned step (test/support/hooked-run.mjs), with TMPDIR a fresh
 * folder of its own; then the same command runs to its end. crash-resume.test.ts checks the same
 * after kills at every other step.
 */
describe('nothing of a run killed with kill -9 stays behind', () => {
  it.each([
    { what: 'a run, killed with a create chunk in the ledger', killAt: 'create-recorded:1', dryRun: false },
    { what: 'a dry run, killed while it reads', killAt: 'read:1', dryRun: true },
  ])('$what', async ({ killAt, dryRun }) => {
    const dir = tempDir();
    const systemTemp = join(dir, 'system-temp');
    mkdirSync(systemTemp);
    const env = { TMPDIR: systemTemp, TMP: systemTemp, TEMP: systemTemp };
    const file = writeGenericCsv(dir, 'people.csv', people(40));
    const state = join(dir, 'state');
    const work = join(state, RUN_WORK_FOLDER);

    const killed = await runHooked(
      {
        run: { pipeline: 'generic', inputs: [file], stateDir: state, outDir: join(dir, 'killed'), dryRun },
        killAt,
      },
      { cwd: dir, env },
    );
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(readdirSync(systemTemp), 'nothing in the system temp folder').toEqual([]);
    expect(readdirSync(work), 'the killed run’s folder and its lock file').toHaveLength(2);

    const args = [
      'run',
      'generic',
      file,
      '--state',
      state,
      '--out',
      join(dir, 'again'),
      '--progress-interval',
      '0',
    ];
    const again = await runCli(dryRun ? [...args, '--dry-run'] : args, { cwd: dir, env });
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(systemTemp)).toEqual([]);
    expect(existsSync(work), 'the killed run’s files swept, the next run’s removed at its end').toBe(false);
  });
});
