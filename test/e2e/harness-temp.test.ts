import { homedir, tmpdir } from 'node:os';
import { relative, isAbsolute } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateDir } from '../../src/state/target-gate.js';
import { SUITE_TMP_ENV } from '../global-setup.js';
import { tempDir } from './harness.js';

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

describe('the suite temp root (removed whole by the global teardown)', () => {
  const root = process.env[SUITE_TMP_ENV];

  it('is announced to the workers', () => {
    expect(root).toBeTruthy();
  });

  it('holds every tempDir() and the workers’ own os.tmpdir()', () => {
    expect(inside(root!, tempDir())).toBe(true);
    expect(tmpdir()).toBe(root);
  });

  it("holds the worker's home and cache folder, where the runs' target gates go", () => {
    expect(inside(root!, homedir())).toBe(true);
    expect(inside(homedir(), process.env.XDG_CACHE_HOME!)).toBe(true);
    expect(inside(root!, gateDir({}))).toBe(true);
  });
});
