import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PARALLEL_MIN_BYTES, workersFor } from '../../../../src/run/parallel/normalize-pool.js';

const work = mkdtempSync(join(tmpdir(), 'workers-for-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A sparse file of `bytes`: only its size matters here. */
const fileOf = (name: string, bytes: number): string => {
  const path = join(work, name);
  writeFileSync(path, '');
  truncateSync(path, bytes);
  return path;
};

describe('workersFor', () => {
  const large = fileOf('large.csv', PARALLEL_MIN_BYTES);
  const small = fileOf('small.csv', PARALLEL_MIN_BYTES - 1);

  it('gives a large file a worker per core but the main thread, one at least, four at most', () => {
    for (const [cores, workers] of [
      [1, 1],
      [2, 1],
      [3, 2],
      [5, 4],
      [16, 4],
    ] as const) {
      expect(workersFor(large, { cores }), `${cores} cores`).toBe(workers);
    }
    expect(workersFor(small, { cores: 8 })).toBe(0);
  });

  it('leaves a core to a service on this machine that loads meanwhile: none on two cores', () => {
    for (const [cores, workers] of [
      [1, 0],
      [2, 0],
      [3, 1],
      [4, 2],
      [16, 4],
    ] as const) {
      expect(workersFor(large, { coresTaken: 1, cores }), `${cores} cores`).toBe(workers);
    }
  });

  it('takes an explicit number over the rule', () => {
    expect(workersFor(large, { requested: 2, coresTaken: 1, cores: 2 })).toBe(2);
    expect(workersFor(small, { requested: 2 })).toBe(2);
    expect(workersFor(large, { requested: 0 })).toBe(0);
    expect(workersFor(large, { requested: Number.NaN })).toBe(0);
    expect(workersFor(large, { requested: 3, coresTaken: 1 })).toBe(3);
  });

  it('reads no environment: CONTACT_IMPORT_WORKERS is the command line’s', () => {
    process.env.CONTACT_IMPORT_WORKERS = '3';
    try {
      expect(workersFor(small, { cores: 8 })).toBe(0);
    } finally {
      delete process.env.CONTACT_IMPORT_WORKERS;
    }
  });
});
