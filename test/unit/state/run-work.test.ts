import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRunWork, RUN_WORK_FOLDER } from '../../../src/state/index.js';
import { tempDir } from '../../support/temp-dirs.js';

describe('openRunWork: a run’s scratch folder in the state directory', () => {
  it('is <state>/tmp/<runId>, readable by its owner alone, and gone with the state folder it made', () => {
    const state = join(tempDir(), 'state');
    const work = openRunWork(state, 'run-a');
    expect(work.dir).toBe(join(state, RUN_WORK_FOLDER, 'run-a'));
    expect(statSync(work.dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(state, RUN_WORK_FOLDER)).mode & 0o777).toBe(0o700);
    writeFileSync(join(work.dir, 'stage.sqlite'), 'scratch');
    work.close();
    work.close();
    expect(existsSync(state), 'a dry run that found no state folder leaves none').toBe(false);
  });

  it('keeps a state folder it did not make, and whatever else it holds', () => {
    const state = tempDir();
    writeFileSync(join(state, 'ledger.sqlite'), '');
    openRunWork(state, 'run-a').close();
    expect(readdirSync(state)).toEqual(['ledger.sqlite']);
  });

  it('sweeps what a dead run left, never what a live run holds', () => {
    const state = tempDir();
    const root = join(state, RUN_WORK_FOLDER);
    // A run killed with its files in place: its folder and its lock file, which no one holds now.
    mkdirSync(join(root, 'dead-run'), { recursive: true });
    writeFileSync(join(root, 'dead-run', 'stage.sqlite'), 'people');
    writeFileSync(join(root, 'dead-run.lock'), '');
    // Killed between its lock file and its folder, or a sweep killed half-way.
    mkdirSync(join(root, 'folder-only'));
    writeFileSync(join(root, 'lock-only.lock'), '');
    const live = openRunWork(state, 'live-run');
    writeFileSync(join(live.dir, 'stage.sqlite'), 'people');

    const next = openRunWork(state, 'next-run');
    expect(readdirSync(root).sort()).toEqual(['live-run', 'live-run.lock', 'next-run', 'next-run.lock']);
    expect(readdirSync(live.dir)).toEqual(['stage.sqlite']);
    next.close();
    live.close();
    expect(existsSync(root)).toBe(false);
  });
});
