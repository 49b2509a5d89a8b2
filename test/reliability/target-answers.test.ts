import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/** Every stored contact's name and e-mail belong to the same person (`Person NumberN`, `person.n@`). */
const mixedAtService = async (): Promise<string[]> =>
  (await svc!.client.local.contacts()).flatMap((c) => {
    const n = /^Person Number(\d+)$/.exec(String(c.full_name))?.[1];
    const emails = c.contact_emails.map((e) => e.email.toLowerCase());
    return n !== undefined && emails.length === 1 && emails[0] === `person.${n}@example.com`
      ? []
      : [`${String(c.full_name)} <${emails.join(', ')}>`];
  });

describe('create answers are matched by position and checked by name', () => {
  it.each([
    ['two contacts swapped', (c: unknown[]) => [c[1], c[0], ...c.slice(2)]],
    ['the whole answer in reverse order', (c: unknown[]) => [...c].reverse()],
  ])(
    '%s: exit 2 before any id is recorded; the next honest run mixes nobody',
    { timeout: 60_000 },
    async (_, reorder) => {
      const { dir, load, ledgerIds } = await setup();
      proxy!.rewriteCreateContacts = reorder;
      const rows = people(60);
      const result = await load(rows, 'reordered');
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(
        /target_inconsistent: the target answered contact #\d+ of the create under Idempotency-Key \S+ \(id [0-9a-f-]+\) with the full name "Person Number\d+" where "Person Number\d+" was sent/,
      );
      const report = readReport(join(dir, 'reordered'));
      expect(report).toMatchObject({
        status: 'aborted',
        exitCode: 2,
        error: { code: 'target_inconsistent' },
      });
      expect(outcomes(report)).toBe(report.totals.read);
      // The first chunk's answer was refused whole: none of its ids is in the ledger.
      expect(ledgerIds(rows.slice(0, 25)).size).toBe(0);

      proxy!.rewriteCreateContacts = undefined;
      const again = await load(rows, 'honest');
      expect(again.code, again.stderr).toBe(0);
      expect(ledgerIds(rows).size).toBe(60);
      const stored = await svc!.client.local.contacts();
      expect(stored).toHaveLength(60);
      expect(await mixedAtService()).toEqual([]);
      // And the ledger maps each person to the contact that holds their e-mail.
      const byId = new Map(stored.map((c) => [c.id, c.contact_emails[0]!.email.toLowerCase()]));
      for (const [key, id] of ledgerIds(rows)) expect(`email:${byId.get(id)}`).toBe(key);
    },
  );
});

describe('an exact e-mail search that also matches full names', () => {
  /** Jane's contact, whose name field holds the desk's address: what a careless import leaves. */
  const seedJane = async () =>
    (
      await svc!.client.createContacts([
        { full_name: 'info@x.example', contact_emails: [{ email: 'jane@x.example' }] },
      ])
    )[0]!;

  const loadDesk = (dir: string, target: string) => {
    const file = join(dir, 'desk.csv');
    writeFileSync(file, 'full_name,email\nInfo Desk,info@x.example\n');
    return runCli(
      ['run', 'generic', file, '--target', target, '--state', join(dir, 'state'), '--out', join(dir, 'out')],
      { cwd: dir, env: { CONTACT_IMPORT_API_KEY: svc!.key } },
    );
  };

  const expectJaneKept = async (jane: { id: string }) => {
    const stored = await svc!.client.local.contacts();
    const kept = stored.find((c) => c.id === jane.id)!;
    expect(kept.full_name).toBe('info@x.example');
    expect(kept.contact_emails.map((e) => e.email)).toEqual(['jane@x.example']);
    const desk = stored.filter((c) => c.id !== jane.id);
    expect(desk.map((c) => [c.full_name, c.contact_emails.map((e) => e.email)])).toEqual([
      ['Info Desk', ['info@x.example']],
    ]);
  };

  it('the local service: the desk is created, Jane stays Jane', { timeout: 60_000 }, async () => {
    const { dir } = await setup();
    const jane = await seedJane();
    const result = await loadDesk(dir, svc!.service.url);
    expect(result.code, result.stderr).toBe(0);
    expect(readReport(join(dir, 'out')).totals).toMatchObject({ created: 1, updated: 0 });
    await expectJaneKept(jane);
  });

  it(
    'a target whose "exact" search matches substrings, answering e-mails: a hit without the address is no match',
    { timeout: 60_000 },
    async () => {
      const { dir } = await setup();
      const jane = await seedJane();
      // The proxy drops exactMatch (the search then matches Jane's name, which contains the
      // address) and adds each hit's e-mails to the answer, as a target that shows them would.
      proxy!.rewriteUrl = (url) => url.replace(/([?&])exactMatch=true&?/, '$1');
      proxy!.rewriteAnswer = async (req, text) => {
        if (!req.url.startsWith('/v1/search/contacts')) return text;
        const payload = JSON.parse(text) as { data: { id: string; contact_emails?: unknown }[] };
        for (const contact of payload.data) {
          contact.contact_emails = (await svc!.client.local.contact(contact.id)).contact_emails;
        }
        return JSON.stringify(payload);
      };
      const result = await loadDesk(dir, proxy!.url);
      expect(result.code, result.stderr).toBe(0);
      expect(readReport(join(dir, 'out')).totals).toMatchObject({ created: 1, updated: 0 });
      await expectJaneKept(jane);
    },
  );
});

describe('a target that is not the service', () => {
  const loadVia = async (dir: string) =>
    runCli(
      [
        'run',
        'generic',
        writeGenericCsv(dir, 'people.csv', people(5)),
        '--target',
        proxy!.url,
        '--state',
        join(dir, 'state'),
        '--out',
        join(dir, 'out'),
      ],
      { cwd: dir, env: { CONTACT_IMPORT_API_KEY: svc!.key } },
    );

  it(
    'a redirect is named as one, with where it points (no credentials, no query)',
    { timeout: 60_000 },
    async () => {
      const { dir } = await setup();
      proxy!.answer = () => ({
        status: 301,
        headers: { location: 'https://someone:hunter2@login.example.com/v1/search/contacts?session=abc123' },
        body: '<html>Moved Permanently</html>',
      });
      const result = await loadVia(dir);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('a redirect to https://login.example.com/v1/search/contacts?...');
      expect(result.stderr).not.toContain("not the service's error envelope");
      expect(result.stderr).not.toMatch(/hunter2|someone|abc123/);
    },
  );

  it.each([
    ['E7', 'POST', /^\/v1\/groups\/?$/, 'E7 `POST /v1/groups/`'],
    ['E9', 'POST', /^\/v1\/custom-fields\/?$/, 'E9 `POST /v1/custom-fields/`'],
  ])(
    'a 404 from %s names the endpoint the target lacks',
    { timeout: 60_000 },
    async (_, method, route, named) => {
      const { dir } = await setup();
      proxy!.answer = (req) =>
        req.method === method && route.test(req.url)
          ? { status: 404, headers: { 'content-type': 'text/html' }, body: '<html>Not Found</html>' }
          : undefined;
      const result = await loadVia(dir);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`the target has no ${named}`);
      expect(result.stderr).toContain('is it the Contact Relationship Service, and which version?');
    },
  );
});
