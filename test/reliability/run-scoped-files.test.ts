import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunStep } from '../../src/run/hooks.js';
import { RUN_WORK_FOLDER } from '../../src/state/index.js';
import { people, writeGenericCsv } from '../e2e/generic-csv.js';
import { runCli, runHooked, tempDir } from '../e2e/harness.js';
import { runImport } from '../../src/run/run.js';

/**
 * A run keeps its scratch files (the staged people, their source rows, spilled issues) in its state
 * directory, never in the system's temp folder, and the next run removes what a killed one left.
 * One killed run per named step of src/run/hooks.ts (SIGKILLed the first time it passes the step,
 * test/support/hooked-run.mjs), with TMPDIR a fresh folder of its own; then the same command runs
 * to its end. Where that run is the command line's (a dry run, and a sync run, which is a live run
 * into the local service with an archive step more: each kind of run once), its system temp
 * folder is checked too; after the other kills the same live run runs in this process, where what
 * differs, the sweep of what the kill left, is checked (the folder a complete run uses does not
 * depend on where the run before it was killed). A sync case's first week, which only sets up what
 * its kill archives, runs in this process. crash-resume.test.ts checks the same after a chain of
 * kills, the last one while reading and the command line's live run after it.
 */
interface Kill {
  what: string;
  dryRun?: boolean;
  /** A sync run (`--sync hr`): its first run completes, the killed one archives those gone since. */
  sync?: boolean;
  /** The run after the kill is the command line's, its system temp folder checked. */
  cliAfter?: boolean;
}

// Keyed by the step, so a step added to RunStep without a case here does not compile.
const KILLS: Record<RunStep, Kill[]> = {
  read: [
    { what: 'a dry run, killed while it reads', dryRun: true, cliAfter: true },
    { what: 'a run, killed while it reads' },
  ],
  group: [{ what: 'a run, killed with a group created on the target and not in the ledger' }],
  'create-recorded': [{ what: 'a run, killed with a create chunk in the ledger, not yet sent' }],
  'create-answered': [{ what: 'a run, killed with a create answered and its ids not in the ledger' }],
  'create-done': [{ what: 'a run, killed between create chunks' }],
  'sync-archived': [{ what: 'a sync run, killed with an archive chunk applied', sync: true, cliAfter: true }],
};

const cases = Object.entries(KILLS).flatMap(([step, kills]) =>
  kills.map((kill) => ({ ...kill, killAt: `${step}:1` })),
);

/** `full_name,email` rows of people from..to-1: a sync run archives the ones a later file leaves out. */
const writeStaff = (dir: string, name: string, from: number, to: number): string => {
  const path = join(dir, name);
  const rows = Array.from(
    { length: to - from },
    (_, k) => `Staff Member${from + k},staff.${from + k}@example.com`,
  );
  writeFileSync(path, ['full_name,email', ...rows].join('\n') + '\n');
  return path;
};

describe('nothing of a run killed with kill -9 stays behind', () => {
  it.each(cases)(
    '$what ($killAt)',
    { timeout: 120_000 },
    async ({ killAt, dryRun = false, sync = false, cliAfter = false }) => {
      const dir = tempDir();
      const systemTemp = join(dir, 'system-temp');
      mkdirSync(systemTemp);
      const env = { TMPDIR: systemTemp, TMP: systemTemp, TEMP: systemTemp };
      const state = join(dir, 'state');
      const work = join(state, RUN_WORK_FOLDER);
      const syncArgs = sync ? ['--sync', 'hr', '--max-archive', '100%', '--chunk-size', '10'] : [];
      const cli = (file: string, out: string) =>
        runCli(
          [
            'run',
            'generic',
            file,
            '--state',
            state,
            '--out',
            join(dir, out),
            '--progress-interval',
            '0',
            ...syncArgs,
            ...(dryRun ? ['--dry-run'] : []),
          ],
          { cwd: dir, env },
        );

      let file = writeGenericCsv(dir, 'people.csv', people(40));
      if (sync) {
        const first = await runImport({
          pipeline: 'generic',
          inputs: [writeStaff(dir, 'week1.csv', 0, 40)],
          stateDir: state,
          outDir: join(dir, 'week1'),
          sync: 'hr',
          maxArchive: '100%',
          chunkSize: 10,
        });
        expect(first.report.exitCode, JSON.stringify(first.report.error)).toBe(0);
        file = writeStaff(dir, 'week2.csv', 20, 40);
      }
      const killed = await runHooked(
        {
          run: {
            pipeline: 'generic',
            inputs: [file],
            stateDir: state,
            outDir: join(dir, 'killed'),
            dryRun,
            ...(sync ? { sync: 'hr', maxArchive: '100%', chunkSize: 10 } : {}),
          },
          killAt,
        },
        { cwd: dir, env },
      );
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      expect(readdirSync(systemTemp), 'nothing in the system temp folder').toEqual([]);
      expect(readdirSync(work), 'the killed run’s folder and its lock file').toHaveLength(2);

      if (cliAfter) {
        const again = await cli(file, 'again');
        expect(again.code, again.stderr).toBe(0);
        expect(readdirSync(systemTemp)).toEqual([]);
      } else {
        const { report } = await runImport({
          pipeline: 'generic',
          inputs: [file],
          stateDir: state,
          outDir: join(dir, 'again'),
          dryRun,
        });
        expect(report.exitCode, JSON.stringify(report.error)).toBe(0);
      }
      expect(existsSync(work), 'the killed run’s files swept, the next run’s removed at its end').toBe(false);
    },
  );
});
