import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { draftPipelineYaml } from '../../src/run/draft-input.js';
import { readIssues, runCli, SAMPLES, startService, tempDir } from './harness.js';
import { runAsCli } from './cli-in-process.js';

const dirs: string[] = [];
const dir = (): string => {
  const made = tempDir();
  dirs.push(made);
  return made;
};
afterAll(() => {
  for (const made of dirs) rmSync(made, { recursive: true, force: true });
});

/**
 * Drafts a pipeline for `input` into draft.yaml, validates `input` with it, and returns the run's
 * report. `init <input> --out draft.yaml` is spawned when `spawned`; otherwise the draft is the
 * library's (what init writes, the command's own part being checked below), and the validate runs
 * in this process as `validate draft.yaml <input> --out out` hands it to the library: a draft with
 * a key the pipeline loader does not know would throw there.
 */
const initThenValidate = async (input: string, { spawned = false } = {}) => {
  const cwd = dir();
  if (spawned) {
    const init = await runCli(['init', input, '--out', 'draft.yaml'], { cwd });
    expect(init.code, init.stderr).toBe(0);
  } else writeFileSync(join(cwd, 'draft.yaml'), await draftPipelineYaml(input));
  const yaml = readFileSync(join(cwd, 'draft.yaml'), 'utf8');
  const { report } = await runAsCli({
    cwd,
    pipeline: 'draft.yaml',
    inputs: [input],
    out: 'out',
    dryRun: true,
  });
  expect([0, 1], JSON.stringify(report.error)).toContain(report.exitCode);
  return { cwd, yaml, report, issues: readIssues(join(cwd, 'out')) };
};

describe('contact-import init', () => {
  it.each([
    'generic.csv',
    'address-book.csv',
    'mail-client.csv',
    'worknet-connections.csv',
    'address-book-legacy.csv',
  ])('drafts a pipeline that validates %s with no record lost and its e-mail columns used', async (file) => {
    const { report, yaml } = await initThenValidate(join(SAMPLES, file));
    expect(yaml).toMatch(/^# DRAFT pipeline/);
    expect(yaml).toMatch(/^emails:\n {2}- column: /m);
    expect(report.totals.read).toBeGreaterThan(0);
    // Each sample holds at most one record with no identity: the draft found the e-mails and names.
    expect(report.totals.rejected).toBeLessThanOrEqual(1);
  });

  it('reads an odd semicolon CSV: French headers and columns known only by their values', async () => {
    const input = join(dir(), 'contacts.csv');
    writeFileSync(
      input,
      'Nom;Prénom;Courriel;Portable;X1;X2\n' +
        'Dupont;Jean;jean@example.fr;+33 6 12 34 56 78;marie@example.com;+33 1 42 68 53 00\n' +
        'Martin;Luc;luc@example.fr;+33 6 12 34 56 79;paul@example.org;+33 1 42 68 53 01\n',
    );
    const { cwd, yaml, report, issues } = await initThenValidate(input, { spawned: true });
    expect(yaml).toContain('delimiter: ;');
    expect(yaml).toMatch(/- column: X1 # values look like emails/);
    expect(yaml).toMatch(/- column: X2 # values look like phones/);
    expect(report.totals.read).toBe(2);
    expect(report.totals.rejected).toBe(0);
    expect(issues).toEqual([]);
    // Loaded for real: every e-mail and phone of both columns reaches the service.
    const svc = await startService();
    try {
      const run = await runAsCli({ cwd, svc, pipeline: 'draft.yaml', inputs: [input], out: 'loaded' });
      expect(run.report.exitCode, JSON.stringify(run.report.error)).toBe(0);
      const stored = await svc.client.local.contacts();
      const emails = stored.flatMap((c) => (c.contact_emails ?? []).map((e) => e.email)).sort();
      expect(emails).toEqual(['jean@example.fr', 'luc@example.fr', 'marie@example.com', 'paul@example.org']);
      const phones = stored.flatMap((c) => (c.contact_phone_numbers ?? []).map((p) => p.phone_number));
      expect(phones).toHaveLength(4);
      expect(stored.map((c) => c.last_name).sort()).toEqual(['Dupont', 'Martin']);
    } finally {
      await svc.close();
    }
  });

  it('writes to stdout without --out, and refuses to overwrite a file without --force', async () => {
    const cwd = dir();
    const input = join(SAMPLES, 'generic.csv');
    const printed = await runCli(['init', input], { cwd });
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('name: generic');
    // What the command prints is the library's draft, which the tests above validate in process.
    expect(printed.stdout).toBe(await draftPipelineYaml(input));
    writeFileSync(join(cwd, 'mine.yaml'), 'keep me\n');
    const refused = await runCli(['init', input, '--out', 'mine.yaml'], { cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(join(cwd, 'mine.yaml'), 'utf8')).toBe('keep me\n');
    const forced = await runCli(['init', input, '--out', 'mine.yaml', '--force'], { cwd });
    expect(forced.code).toBe(0);
    expect(readFileSync(join(cwd, 'mine.yaml'), 'utf8')).toBe(printed.stdout);
  });

  it('exits 2 with one line for an input that does not exist', async () => {
    const cwd = dir();
    const result = await runCli(['init', 'missing.csv', '--out', 'x.yaml'], { cwd });
    expect(result.code).toBe(2);
    expect(existsSync(join(cwd, 'x.yaml'))).toBe(false);
  });
});
