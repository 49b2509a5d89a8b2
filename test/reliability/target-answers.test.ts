import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger, scopeId } from '../../src/state/index.js';
import { people, writeGenericCsv, type Person } from '../e2e/generic-csv.js';
import { outcomes, readReport, runCli, startService, type TestService } from '../e2e/harness.js';
import { startRewritingProxy, type RewritingProxy } from '../support/rewriting-proxy.js';

/** Issue 16.5: a target that answers ids that cannot be right stops the run, and none is recorded. */
let svc: TestService | undefined;
let proxy: RewritingProxy | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await proxy?.close();
  await svc?.close();
  proxy = undefined;
  svc = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const setup = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ci-answers-'));
  dirs.push(dir);
  svc = await startService();
  proxy = await startRewritingProxy(svc.service.url);
  const state = join(dir, 'state');
  const load = (rows: Person[], name: string) =>
    runCli(
      [
        'run',
        'generic',
        writeGenericCsv(dir, `${name}.csv`, rows),
        '--target',
        proxy!.url,
        '--state',
        state,
        '--out',
        join(dir, name),
        '--chunk-size',
        '25',
      ],
      { cwd: dir, env: { CONTACT_IMPORT_API_KEY: svc!.key } },
    );
  /** What the ledger maps each person's identity to. */
  const ledgerIds = (rows: Person[]): Map<string, string> => {
    const ledger = openLedger({ dir: state });
    try {
      const known = ledger
        .scope(scopeId(proxy!.url, svc!.key))
        .getContacts(rows.map((p) => `email:${p.email.toLowerCase()}`));
      return new Map([...known].map(([key, entry]) => [key, entry.contactId]));
    } finally {
      ledger.close();
    }
  };
  return { dir, load, ledgerIds };
};

const expectStopped = (result: { code: number | null; stderr: string }, out: string, id: string) => {
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(`target_inconsistent: the target answered id ${id} for different contacts`);
  const report = readReport(out);
  expect(report).toMatchObject({ status: 'aborted', exitCode: 2, error: { code: 'target_inconsistent' } });
  expect(report.totals.created).toBe(0);
  expect(outcomes(report)).toBe(report.totals.read);
};

describe('target answers', () => {
  it('one id for every contact of a create: exit 2, and the ledger records none of them', async () => {
    const { dir, load, ledgerIds } = await setup();
    let first = '';
    proxy!.rewriteCreate = (ids) => {
      first ||= ids[0]!;
      return ids.map(() => first);
    };
    const rows = people(100);
    const result = await load(rows, 'same-id');
    expectStopped(result, join(dir, 'same-id'), first);
    expect(ledgerIds(rows).size).toBe(0);
  });

  it('ids that already belong to other people in the ledger: exit 2, nothing recorded, nothing merged', async () => {
    const { dir, load, ledgerIds } = await setup();
    const before = people(10);
    expect((await load(before, 'honest')).code).toBe(0);
    const known = ledgerIds(before);
    expect(known.size).toBe(10);
    // From now on the target answers the ids of those ten for new people.
    const taken = [...known.values()];
    proxy!.rewriteCreate = (ids) => ids.map((_, i) => taken[i % taken.length]!);
    const later = people(5, 100);
    const result = await load(later, 'taken');
    expectStopped(result, join(dir, 'taken'), taken[0]!);
    expect(ledgerIds(later).size).toBe(0);
    expect(ledgerIds(before)).toEqual(known);
  });
});
