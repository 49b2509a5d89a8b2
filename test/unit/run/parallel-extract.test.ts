import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isInKeyOrder } from '../../../src/core/key-order.js';
import { loadPipeline } from '../../../src/mapping/index.js';
import { extract } from '../../../src/run/extract.js';
import { RunOutputs } from '../../../src/run/outputs.js';
import { workersFor } from '../../../src/run/parallel/normalize-pool.js';
import { References } from '../../../src/package/references.js';
import { Staging } from '../../../src/package/staging.js';
import { emptyTotals } from '../../../src/report/run-report.js';
// The bench's seeded generator: mixed phone formats, bad rows, duplicates, quoted newlines.
import { generate } from '../../../bench/generate.js';

const root = resolve(import.meta.dirname, '../../..');
const work = mkdtempSync(join(tmpdir(), 'parallel-extract-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** One extract over `inputs`; everything it produced, as text, for comparison. */
const extractWith = async (
  workers: number,
  pipelineName: string,
  inputs: string[],
  keysOnly = false,
  how: { loadMeanwhile?: boolean; onRecord?: () => void } = {},
) => {
  const pipeline = await loadPipeline(pipelineName);
  const out = join(work, `out-${pipelineName}-${workers}-${keysOnly}`);
  const outputs = new RunOutputs(out, inputs.length, work);
  const staging = new Staging({ dir: work, keysOnly });
  const totals = emptyTotals();
  const references = new References();
  try {
    const infos = await extract(
      {
        pipeline,
        inputs,
        strict: false,
        workers,
        ...(how.loadMeanwhile ? { loadMeanwhile: true, lowerWorkerPriority: true } : {}),
        ...(how.onRecord ? { onRecord: how.onRecord } : {}),
      },
      { outputs, staging, totals, references },
    );
    const staged = keysOnly ? [] : [...staging.batches(1000)].flat();
    const places = [...staging.places(1000)].flat();
    // The source text of each staged record, from the side table (records do not carry it).
    const sources = places.map((place) => staging.sourceOf(place));
    await outputs.close();
    const rejected = outputs.rejectedPaths().map((p) => readFileSync(p, 'utf8'));
    return {
      infos,
      totals,
      staged,
      places,
      sources,
      issues: readFileSync(outputs.issues.path, 'utf8'),
      rejected,
      groups: [...references.groups].sort(),
      customFields: references.customFields(),
    };
  } finally {
    staging.close();
  }
};

describe('extract with normalize workers', () => {
  it('produces exactly what the in-thread path produces: totals, staged records in order, issues, rejects', async () => {
    const generic = join(work, 'generic.csv');
    const counts = await generate({ format: 'generic', rows: 2000, seed: 3, out: generic });
    const sample = join(root, 'samples/generic.csv');
    const inThread = await extractWith(0, 'generic', [generic, sample]);
    const parallel = await extractWith(2, 'generic', [generic, sample]);

    expect(inThread.totals.read).toBe(2000 + inThread.infos[1]!.rows);
    expect(counts.duplicates).toBeGreaterThan(0);
    expect(inThread.totals.duplicates).toBeGreaterThan(0);
    expect(inThread.totals.rejected).toBeGreaterThan(0);
    expect(parallel.totals).toEqual(inThread.totals);
    expect(parallel.staged).toEqual(inThread.staged);
    expect(parallel.issues).toBe(inThread.issues);
    expect(parallel.rejected).toEqual(inThread.rejected);
    expect(parallel.groups).toEqual(inThread.groups);
    // One record shape: a staged record carries no source text; the side table has it, verbatim.
    expect(inThread.staged.some((r) => 'raw' in r)).toBe(false);
    expect(parallel.sources).toEqual(inThread.sources);
    const lines = readFileSync(generic, 'utf8').split('\n');
    const first = inThread.staged[0]!;
    expect(inThread.sources[0]).toBe(lines[first.line - 1]!.replace(/\r$/, ''));
    expect(inThread.sources.every((text) => typeof text === 'string' && text.length > 0)).toBe(true);
    expect(parallel.customFields).toEqual(inThread.customFields);
    // Serialized in key order where they were normalized: the load stage only checks the order.
    // A record a duplicate merged into is put in order when it is loaded.
    const merged = new Set(inThread.staged.filter((r) => !isInKeyOrder(r.contact)).map((r) => r.key));
    expect(merged.size).toBeLessThanOrEqual(inThread.totals.duplicates);
    // No loss: every record read is rejected, a duplicate, or staged.
    const t = parallel.totals;
    expect(t.rejected + t.duplicates + parallel.staged.length).toBe(t.read);
  });

  it('keys-only (a dry run that only counts): the same totals, issues, rejects and places, in- and off-thread', async () => {
    const generic = join(work, 'generic-keys.csv');
    await generate({ format: 'generic', rows: 2000, seed: 7, out: generic });
    const full = await extractWith(0, 'generic', [generic]);
    const inThread = await extractWith(0, 'generic', [generic], true);
    const parallel = await extractWith(2, 'generic', [generic], true);
    for (const keysOnly of [inThread, parallel]) {
      expect(keysOnly.totals).toEqual(full.totals);
      expect(keysOnly.issues).toBe(full.issues);
      expect(keysOnly.rejected).toEqual(full.rejected);
      expect(keysOnly.groups).toEqual(full.groups);
      expect(keysOnly.places).toEqual(
        full.staged.map(({ file, row, line, input, key }) => ({ file, row, line, input, key })),
      );
      // A keys-only staging loads nothing, so nothing can fail later: it keeps no source text.
      expect(keysOnly.sources.every((text) => text === undefined)).toBe(true);
    }
  });

  it('does the same for address-book exports', async () => {
    const book = join(work, 'book.csv');
    await generate({ format: 'address-book-csv', rows: 1000, seed: 5, out: book });
    const inThread = await extractWith(0, 'address-book-csv', [book]);
    const parallel = await extractWith(3, 'address-book-csv', [book]);
    expect(parallel.totals).toEqual(inThread.totals);
    expect(parallel.staged).toEqual(inThread.staged);
    expect(parallel.issues).toBe(inThread.issues);
    expect(parallel.staged.some((r) => r.contact.contact_phone_numbers?.length)).toBe(true);
  });

  it('with a load meanwhile: the same output, every batch normalized by a worker at a lower priority', async () => {
    const generic = join(work, 'generic-meanwhile.csv');
    await generate({ format: 'generic', rows: 12_000, seed: 11, out: generic });
    const inThread = await extractWith(0, 'generic', [generic]);
    // Linux: each thread's nice value is field 19 of /proc/self/task/<id>/stat.
    const niceValues = (): number[] =>
      readdirSync('/proc/self/task').map((task) => {
        const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      });
    const seen: number[] = [];
    const meanwhile = await extractWith(1, 'generic', [generic], false, {
      loadMeanwhile: true,
      onRecord: () => {
        if (existsSync('/proc/self/task')) seen.push(...niceValues());
      },
    });
    expect(meanwhile.totals).toEqual(inThread.totals);
    expect(meanwhile.staged).toEqual(inThread.staged);
    expect(meanwhile.issues).toBe(inThread.issues);
    expect(meanwhile.rejected).toEqual(inThread.rejected);
    if (existsSync('/proc/self/task')) {
      // The worker's thread alone runs at nice 10; this thread keeps its priority.
      expect(seen).toContain(10);
      expect(niceValues()).not.toContain(10);
    }
  });

  it('keeps small inputs and stdin in-thread unless told otherwise', () => {
    expect(workersFor(join(root, 'samples/generic.csv'))).toBe(0);
    expect(workersFor('-')).toBe(0);
    expect(workersFor(join(work, 'missing.csv'))).toBe(0);
    expect(workersFor('-', { requested: 2 })).toBe(2);
    expect(workersFor('x.csv', { requested: 0 })).toBe(0);
  });
});
