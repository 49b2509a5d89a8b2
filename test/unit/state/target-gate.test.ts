import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { enterTargetGate } from '../../../src/state/index.js';

/**
 * Scopes share a gate file by the first byte of their id. A run that waited for a run of its own
 * scope resolves afresh (`waited`); one that waited for another scope's run has nothing to fear
 * from it and must not pay a search per record for the coincidence.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const gates = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ci-gates-'));
  dirs.push(dir);
  return dir;
};
const run = (runId: string) => ({ runId, since: new Date() });

const enterAfterRelease = async (dir: string, first: string, second: string) => {
  const held = await enterTargetGate(first, run('a'), { dir });
  if (!('entered' in held)) throw new Error('the first run should enter at once');
  expect(held.entered.waited).toBe(false);
  const waits: unknown[] = [];
  const entering = enterTargetGate(second, run('b'), { dir, onWait: (holder) => waits.push(holder) });
  await new Promise((resolve) => setTimeout(resolve, 400));
  held.entered.release();
  const outcome = await entering;
  if (!('entered' in outcome)) throw new Error('the second run should enter once the first left');
  outcome.entered.release();
  return { waited: outcome.entered.waited, waits };
};

describe('enterTargetGate', () => {
  it('says a run waited when the holder loaded into its own scope', async () => {
    const { waited, waits } = await enterAfterRelease(gates(), 'ab11', 'ab11');
    expect(waited).toBe(true);
    expect(waits).toEqual([expect.objectContaining({ runId: 'a', scope: 'ab11' })]);
  });

  it('takes turns with another scope sharing the gate file, and does not call that waiting', async () => {
    const { waited, waits } = await enterAfterRelease(gates(), 'ab11', 'ab22');
    expect(waited).toBe(false);
    expect(waits).toEqual([]);
  });
});
