import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isImportError } from '../../src/core/errors/index.js';
import type { RunReport } from '../../src/report/run-report.js';
import { runImport } from '../../src/run/run.js';
import { openLedger, scopeId } from '../../src/state/index.js';
import { people, writeGenericCsv, type Person } from '../e2e/generic-csv.js';
import { outcomes, readReport, runCli, startService, type TestService } from '../e2e/harness.js';
import { startRewritingProxy, type RewritingProxy } from '../support/rewriting-proxy.js';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

/** A target that answers ids that cannot be right stops the run, and none is recorded. */
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
  /** The same run in this process: for a run whose command line the test does not check. */
  const loadHere = async (rows: Person[], name: string): Promise<RunReport> =>
    (
      await runImport({
        pipeline: 'generic',
        inputs: [writeGenericCsv(dir, `${name}.csv`, rows)],
        target: { url: proxy!.url, apiKey: svc!.key },
        stateDir: state,
        outDir: join(dir, name),
        chunkSize: 25,
      })
    ).report;
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
  return { dir, load, loadHere, ledgerIds };
};

const expectStoppedReport = (report: RunReport, id: string) => {
  expect(report).toMatchObject({ status: 'aborted', exitCode: 2, error: { code: 'target_inconsistent' } });
  expect(report.error?.message).toContain(`the target answered id ${id} for different contacts`);
  expect(report.totals.created).toBe(0);
  expect(outcomes(report)).toBe(report.totals.read);
};

/**
 * `code: message` of a run in this process that stops: a thrown ImportError (the start probe) or
 * the report's error, what the command line prints as its one line.
 */
const stopOf = async (run: Promise<RunReport>): Promise<string> => {
  try {
    const report = await run;
    expect(report).toMatchObject({ status: 'aborted', exitCode: 2 });
    return `${report.error?.code}: ${report.error?.message}`;
  } catch (error) {
    expect(isImportError(error), String(error)).toBe(true);
    return `${(error as { code: string }).code}: ${(error as Error).message}`;
  }
};

// How a stop reads on the command line (exit 2, its one line) is the spawned run's of 'two
// contacts swapped' below; these stops are the library's, seen in the report it writes.
describe('target answers', () => {
  it('one id for every contact of a create: exit 2, and the ledger records none of them', async () => {
    const { dir, loadHere, ledgerIds } = await setup();
    let first = '';
    proxy!.rewriteCreate = (ids) => {
      first ||= ids[0]!;
      return ids.map(() => first);
    };
    const rows = people(50);
    expectStoppedReport(await loadHere(rows, 'same-id'), first);
    expectStoppedReport(readReport(join(dir, 'same-id')), first);
    expect(ledgerIds(rows).size).toBe(0);
  });

  it('ids that already belong to other people in the ledger: exit 2, nothing recorded, nothing merged', async () => {
    const { loadHere, ledgerIds } = await setup();
    const before = people(10);
    expect((await loadHere(before, 'honest')).exitCode).toBe(0);
    const known = ledgerIds(before);
    expect(known.size).toBe(10);
    // From now on the target answers the ids of those ten for new people.
    const taken = [...known.values()];
    proxy!.rewriteCreate = (ids) => ids.map((_, i) => taken[i % taken.length]!);
    const later = people(5, 100);
    expectStoppedReport(await loadHere(later, 'taken'), taken[0]!);
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
  const REORDERED =
    /target_inconsistent: the target answered contact #\d+ of the create under Idempotency-Key \S+ \(id [0-9a-f-]+\) with the full name "Person Number\d+" where "Person Number\d+" was sent/;

  // One spawned run says the stop on the command line; the other reorder is the same stop in the
  // report. The honest run after it is the library's either way.
  it.each([
    ['two contacts swapped', 'cli', (c: unknown[]) => [c[1], c[0], ...c.slice(2)]],
    ['the whole answer in reverse order', 'in process', (c: unknown[]) => [...c].reverse()],
  ] as const)(
    '%s: exit 2 before any id is recorded; the next honest run mixes nobody (%s)',
    { timeout: 60_000 },
    async (_, how, reorder) => {
      const { dir, load, loadHere, ledgerIds } = await setup();
      proxy!.rewriteCreateContacts = reorder;
      const rows = people(60);
      if (how === 'cli') {
        const result = await load(rows, 'reordered');
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toMatch(REORDERED);
      } else {
        expect(await stopOf(loadHere(rows, 'reordered'))).toMatch(REORDERED);
      }
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
      expect((await loadHere(rows, 'honest')).exitCode).toBe(0);
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

  /** Matching is the library's: the desk's run goes in this process. */
  const loadDesk = async (dir: string, target: string): Promise<RunReport> => {
    const file = join(dir, 'desk.csv');
    writeFileSync(file, 'full_name,email\nInfo Desk,info@x.example\n');
    const { report } = await runImport({
      pipeline: 'generic',
      inputs: [file],
      target: { url: target, apiKey: svc!.key },
      stateDir: join(dir, 'state'),
      outDir: join(dir, 'out'),
    });
    return report;
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
    const report = await loadDesk(dir, svc!.service.url);
    expect(report.exitCode, JSON.stringify(report.error)).toBe(0);
    expect(report.totals).toMatchObject({ created: 1, updated: 0 });
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
      const report = await loadDesk(dir, proxy!.url);
      expect(report.exitCode, JSON.stringify(report.error)).toBe(0);
      expect(report.totals).toMatchObject({ created: 1, updated: 0 });
      await expectJaneKept(jane);
    },
  );
});

/**
 * A logger at the command line's level (warn) that keeps each line it writes, every field of it:
 * what the command line writes to stderr for a run, before the line of its stop.
 */
const keptLog = (): { logger: Logger; lines: string[] } => {
  const lines: string[] = [];
  const sink = new Writable({
    write(line: Buffer, _encoding, done) {
      lines.push(line.toString());
      done();
    },
  });
  return { logger: pino({ level: 'warn' }, sink), lines };
};

// How a stop reads on the command line is the spawned run's of 'two contacts swapped' above; what
// a stop says is the run's message, the same in this process, with what it logs kept.
/** What a run of five people through the proxy stops with (the library's message). */
const stopOfFive = (dir: string, logger?: Logger) =>
  stopOf(
    runImport({
      pipeline: 'generic',
      inputs: [writeGenericCsv(dir, 'people.csv', people(5))],
      target: { url: proxy!.url, apiKey: svc!.key },
      stateDir: join(dir, 'state'),
      outDir: join(dir, 'out'),
      ...(logger ? { logger } : {}),
    }).then((r) => r.report),
  );

describe('a target that is not the service', () => {
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
      const { logger, lines } = keptLog();
      const stop = await stopOfFive(dir, logger);
      const stderr = [...lines, stop].join('\n');
      expect(stop).toContain('a redirect to https://login.example.com/v1/search/contacts?...');
      expect(stderr).not.toContain("not the service's error envelope");
      expect(stderr).not.toMatch(/hunter2|someone|abc123/);
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
      const stop = await stopOfFive(dir);
      expect(stop).toContain(`the target has no ${named}`);
      expect(stop).toContain('is it the Contact Relationship Service, and which version?');
    },
  );
});
