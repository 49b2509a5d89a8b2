import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { readReport, runCli, type TestService } from './harness.js';
import { perTest } from '../support/per-test.js';
import { startRewritingProxy } from '../support/rewriting-proxy.js';
import { createLocalClient } from '../support/local-client.js';
import { startServeProcess } from '../contract/server/serve-process.js';
import { runImport } from '../../src/run/run.js';
import type { RunReport } from '../../src/report/run-report.js';

const t = perTest();

/** Three people, each with two e-mails, or `dropped` without the second one. */
const writeWeek = (dir: string, name: string, dropped: boolean): string => {
  const path = join(dir, name);
  const rows = [0, 1, 2].map((i) => [
    `Legacy Person${i}`,
    `legacy.${i}@example.com`,
    dropped ? '' : `legacy.${i}.second@example.com`,
  ]);
  writeFileSync(path, stringify([['full_name', 'email', 'email_2'], ...rows]));
  return path;
};

const sync = (svc: TestService, dir: string, file: string, extra: string[]) =>
  runCli(
    [
      'run',
      'generic',
      file,
      '--sync',
      'hr',
      '--target',
      svc.service.url,
      '--state',
      join(dir, 'state'),
      ...extra,
    ],
    { cwd: dir, env: { CONTACT_IMPORT_API_KEY: svc.key } },
  );

/**
 * sync()'s run in this process, with the legacy client's settings `--legacy-target` and
 * `--legacy-auth-header` stand for: for the weeks before the one whose command line is checked.
 */
const syncInProcess = async (
  target: { url: string; key: string },
  dir: string,
  file: string,
  out: string,
  legacy?: { baseUrl?: string; authHeader?: string },
): Promise<RunReport> =>
  (
    await runImport({
      pipeline: 'generic',
      inputs: [file],
      sync: 'hr',
      target: { url: target.url, apiKey: target.key },
      stateDir: join(dir, 'state'),
      outDir: join(dir, out),
      ...(legacy ? { client: { legacy } } : {}),
    })
  ).report;

const secondEmails = async (svc: TestService): Promise<number> =>
  (await svc.client.local.contacts()).filter((c) =>
    c.contact_emails.some((e) => e.email.includes('.second@')),
  ).length;

describe('E11 for sync removals: --legacy-target and --legacy-auth-header', { timeout: 180_000 }, () => {
  it('sends E11 to --legacy-target and everything else to --target', async () => {
    const svc = await t.start();
    const dir = t.dir();
    const proxy = await startRewritingProxy(svc.service.url);
    t.closeLater(() => proxy.close());
    const legacy = ['--legacy-target', proxy.url];
    const mine = { url: svc.service.url, key: svc.key };
    const w1 = await syncInProcess(mine, dir, writeWeek(dir, 'w1.csv', false), 'w1', { baseUrl: proxy.url });
    expect(w1.exitCode).toBe(0);
    expect(await secondEmails(svc)).toBe(3);
    const w2 = await sync(svc, dir, writeWeek(dir, 'w2.csv', true), [...legacy, '--out', join(dir, 'w2')]);
    expect(w2.code, w2.stderr).toBe(0);
    expect(await secondEmails(svc)).toBe(0);
    expect(proxy.bodies.map((b) => `${b.method} ${b.path.replace(/[0-9a-f-]{36}/, '{id}')}`)).toEqual([
      'PUT /api/rest/contacts/{id}',
      'PUT /api/rest/contacts/{id}',
      'PUT /api/rest/contacts/{id}',
    ]);
    expect(readReport(join(dir, 'w2')).requests.byEndpoint['PUT /api/rest/contacts/{id}']).toMatchObject({
      sent: 3,
      failed: 0,
    });
  });

  it('puts the key in the header --legacy-auth-header names; without it such a target refuses E11 (exit 2, key not shown)', async () => {
    const svc = await t.start({ legacyAuthHeader: 'X-Legacy-Key' });
    const dir = t.dir();
    const w1 = await syncInProcess(
      { url: svc.service.url, key: svc.key },
      dir,
      writeWeek(dir, 'w1.csv', false),
      'w1',
    );
    expect(w1.exitCode).toBe(0);
    // The refusal is the library's, in this process: its error is the line the command line
    // prints (how a stop reads there: the run of --legacy-auth-header below, and run-target.test.ts).
    const refused = await syncInProcess(
      { url: svc.service.url, key: svc.key },
      dir,
      writeWeek(dir, 'w2.csv', true),
      'refused',
    );
    expect(refused.exitCode).toBe(2);
    expect(refused.error?.code).toBe('auth_failed');
    expect(JSON.stringify(refused)).not.toContain(svc.key);
    expect(await secondEmails(svc)).toBe(3);
    const w2 = await sync(svc, dir, writeWeek(dir, 'w2.csv', true), [
      '--legacy-auth-header',
      'X-Legacy-Key',
      '--out',
      join(dir, 'w2'),
    ]);
    expect(w2.code, w2.stderr).toBe(0);
    expect(await secondEmails(svc)).toBe(0);
  });

  it('retries E11 through the service faults like every endpoint', async () => {
    const svc = await t.start({ failRate: 0.3, seed: 7 });
    const dir = t.dir();
    // Both weeks in this process: the retries are the client's, whatever starts the run.
    const mine = { url: svc.service.url, key: svc.key };
    expect((await syncInProcess(mine, dir, writeWeek(dir, 'w1.csv', false), 'w1')).exitCode).toBe(0);
    const w2 = await syncInProcess(mine, dir, writeWeek(dir, 'w2.csv', true), 'w2');
    expect(w2.exitCode, JSON.stringify(w2.error)).toBe(0);
    expect(await secondEmails(svc)).toBe(0);
    expect(svc.service.injectedFaults().failed).toBeGreaterThan(0);
    expect(readReport(join(dir, 'w2')).requests.retried).toBeGreaterThan(0);
  });
});

describe(
  'serve --legacy-auth-header: the local E11 behind a gateway that wants another header',
  { timeout: 180_000 },
  () => {
    it('refuses E11 with the key in Authorization, and a sync run whose --legacy-auth-header names the header goes through', async () => {
      const key = 'serve_legacy_key_0123';
      const serve = await startServeProcess(['--api-key', key, '--legacy-auth-header', 'X-Legacy-Key']);
      t.closeLater(() => serve.stop());
      const dir = t.dir();
      const client = createLocalClient({ baseUrl: serve.url, apiKey: key });
      t.closeLater(() => client.close());
      // The runs in this process: what is checked is the serve process's E11, and the command
      // line's --legacy-auth-header is checked against an in-process service above.
      const target = { url: serve.url, key };
      const w1 = await syncInProcess(target, dir, writeWeek(dir, 'w1.csv', false), 'w1');
      expect(w1.exitCode).toBe(0);
      const w2 = writeWeek(dir, 'w2.csv', true);
      const bearer = await syncInProcess(target, dir, w2, 'bearer');
      expect(bearer.exitCode).toBe(2);
      expect(bearer.error?.code).toBe('auth_failed');
      const named = await syncInProcess(target, dir, w2, 'named', { authHeader: 'X-Legacy-Key' });
      expect(named.exitCode, JSON.stringify(named.error)).toBe(0);
      const contacts = await client.local.contacts();
      expect(contacts).toHaveLength(3);
      expect(contacts.every((c) => c.contact_emails.length === 1)).toBe(true);
      expect(readReport(join(dir, 'named')).requests.byEndpoint['PUT /api/rest/contacts/{id}']).toMatchObject(
        {
          sent: 3,
          failed: 0,
        },
      );
    });
  },
);
