import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPipeline } from '../../../src/mapping/index.js';
import {
  definitionFingerprint,
  hashInputs,
  inputsUntouched,
  toolVersion,
} from '../../../src/run/fingerprint.js';
import { decideShortcut } from '../../../src/run/rerun-shortcut.js';
import { openLedger, scopeId, type Ledger, type RunSnapshot } from '../../../src/state/index.js';
import { tempDirs } from '../state/fixtures/temp-dir.js';

const dirs = tempDirs('rerun-shortcut');
afterAll(() => dirs.cleanup());

const SCOPE = scopeId('https://api.example.com', 'key-0123456789abcdef');
const totals = {
  read: 3,
  rejected: 1,
  duplicates: 0,
  created: 2,
  updated: 0,
  unchanged: 0,
  failed: 0,
  warnings: 0,
};

/** A ledger whose last run loaded `input` and left issues.csv in its out dir. */
const setup = async (report: Record<string, unknown> = {}, status = 'completed') => {
  const dir = dirs.make();
  const input = join(dir, 'people.csv');
  writeFileSync(input, 'email\na@example.org\nb@example.org\n\n');
  const outDir = join(dir, 'out');
  mkdirSync(outDir);
  writeFileSync(join(outDir, 'issues.csv'), 'file,row\n');
  writeFileSync(join(outDir, 'outcomes.csv'), 'file,row,line,outcome,contact_id,identity,reason\n');
  const hashed = (await hashInputs([input]))!;
  const snapshot: RunSnapshot = {
    definition: 'def',
    inputs: hashed.map((h) => h.fingerprint),
    outDir,
    outputs: [{ name: 'issues.csv', size: 9 }],
    topIssues: [],
  };
  const ledger = openLedger({ dir: join(dir, 'state') });
  ledger.startRun({
    runId: 'r1',
    scopeId: SCOPE,
    pipeline: 'generic',
    inputs: [input],
    dryRun: false,
    startedAt: new Date().toISOString(),
  });
  const fullReport = {
    dryRun: false,
    status,
    inputs: [{ path: input, format: 'csv', encoding: 'utf-8', delimiter: ',', rows: 3 }],
    totals,
    groups: { created: 0, existing: 0 },
    customFields: { created: 0, existing: 0 },
    ...report,
  };
  ledger.finishRun('r1', fullReport, snapshot);
  const check = { ledger, scopeId: SCOPE, definition: 'def', inputs: snapshot.inputs, targetEmpty: false };
  return { ledger, check, input, outDir };
};

const reasonOf = async (check: Parameters<typeof decideShortcut>[0]) => {
  const decision = await decideShortcut(check);
  return decision.use ? 'use' : decision.reason;
};

describe('decideShortcut', () => {
  const ledgers: Ledger[] = [];
  afterAll(() => ledgers.forEach((l) => l.close()));

  it('reuses a completed run with the same definition and inputs', async () => {
    const { ledger, check } = await setup();
    ledgers.push(ledger);
    const decision = await decideShortcut(check);
    expect(decision).toMatchObject({ use: true, previous: { runId: 'r1', report: { totals } } });
  });

  it('refuses failures, an interrupted run, another definition, other bytes, pending creates, an empty target, a changed output', async () => {
    const failed = await setup({ totals: { ...totals, created: 1, failed: 1 } });
    expect(await reasonOf(failed.check)).toMatch(/had 1 failed records/);
    const interrupted = await setup({}, 'interrupted');
    expect(await reasonOf(interrupted.check)).toMatch(/ended interrupted/);

    const { ledger, check, input, outDir } = await setup();
    ledgers.push(failed.ledger, interrupted.ledger, ledger);
    expect(await reasonOf({ ...check, definition: 'other' })).toMatch(
      /pipeline, its settings or the tool version/,
    );
    const other = { ...check.inputs[0]!, sha256: '0'.repeat(64) };
    expect(await reasonOf({ ...check, inputs: [other] })).toMatch(/inputs differ/);
    expect(await reasonOf({ ...check, inputs: [...check.inputs, ...check.inputs] })).toMatch(/inputs differ/);
    expect(await reasonOf({ ...check, targetEmpty: true })).toMatch(
      /target holds no contacts, but the last run r1 left 2/,
    );

    const scope = ledger.scope(SCOPE);
    scope.beginCreate({ runId: 'run-1', idempotencyKey: 'k', keys: ['a'], hashes: ['h'], body: '{}' });
    expect(await reasonOf(check)).toMatch(/pending/);
    scope.abandonCreate('k');
    expect(await reasonOf(check)).toBe('use');

    writeFileSync(join(outDir, 'issues.csv'), 'file,row,x\n');
    expect(await reasonOf(check)).toMatch(/issues\.csv of the last run r1 is gone or changed/);
    void input;
  });
});

describe('fingerprints', () => {
  it('hash the bytes of each file, skip stdin, and notice a file touched after hashing', async () => {
    const dir = dirs.make();
    const file = join(dir, 'a.csv');
    writeFileSync(file, 'email\nx@example.org\n');
    const [hashed] = (await hashInputs([file]))!;
    expect(hashed!.fingerprint).toEqual({
      path: file,
      size: 20,
      sha256: createHash('sha256').update('email\nx@example.org\n').digest('hex'),
    });
    expect(await hashInputs([file, '-'])).toBeUndefined();
    expect(await hashInputs([join(dir, 'missing.csv')])).toBeUndefined();
    expect(await inputsUntouched([hashed!])).toBe(true);
    writeFileSync(file, 'email\ny@example.org\nz@example.org\n');
    expect(await inputsUntouched([hashed!])).toBe(false);
  });

  it('the definition changes with the pipeline, region, strict, match and body limit, and with nothing else', async () => {
    expect(toolVersion()).toMatch(/^\d+\.\d+\.\d+/);
    const pipeline = await loadPipeline('generic');
    const base = { pipeline, strict: false, match: 'email' };
    const fingerprint = definitionFingerprint(base);
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(
      definitionFingerprint({ ...base, pipeline: { ...pipeline, file: '/elsewhere/generic.yaml' } }),
    ).toBe(fingerprint);
    const others = [
      definitionFingerprint({ ...base, region: 'GB' }),
      definitionFingerprint({ ...base, strict: true }),
      definitionFingerprint({ ...base, match: 'none' }),
      definitionFingerprint({ ...base, maxBodyBytes: 1_000_000 }),
      definitionFingerprint({ ...base, pipeline: { ...pipeline, constants: { source: 'mobile' } } }),
      definitionFingerprint({ ...base, pipeline: await loadPipeline('mail-client-csv') }),
    ];
    expect(new Set([fingerprint, ...others]).size).toBe(others.length + 1);
  });
});
