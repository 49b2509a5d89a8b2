import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../src/run/run.js';
import { startPeer, type Peer } from '../support/peer.js';
import { people, writeGenericCsv } from './generic-csv.js';
import { runCli, startService, type CliResult, type TestService } from './harness.js';
import { refusalOf } from './cli-in-process.js';

/** The target is checked before anything is read, in the user's terms. */
let dir: string;
let file: string;
let svc: TestService | undefined;
let peer: Peer | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ci-target-'));
  file = writeGenericCsv(dir, 'people.csv', people(12));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await svc?.close();
  await peer?.close();
  svc = undefined;
  peer = undefined;
});

const run = (target: string, out: string, env: Record<string, string> = {}, extra: string[] = []) =>
  runCli(
    [
      'run',
      'generic',
      file,
      '--target',
      target,
      '--state',
      join(dir, `state-${out}`),
      '--out',
      join(dir, out),
      ...extra,
    ],
    {
      cwd: dir,
      env: { CONTACT_IMPORT_API_KEY: 'e2e-target-key-77aa91', ...env },
    },
  );

/** The same run in this process, for what the library decides alone. */
const importHere = (target: string, out: string, apiKey = 'e2e-target-key-77aa91') =>
  runImport({
    pipeline: 'generic',
    inputs: [file],
    target: { url: target, apiKey },
    stateDir: join(dir, `state-${out}`),
    outDir: join(dir, out),
  });

/** One line on stderr, no stack trace. */
const oneLine = (result: CliResult): string => {
  expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return result.stderr.trim();
};

/** Every file under `root`, read as text. */
const everyFile = (root: string): string[] =>
  readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((name) => join(root, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => readFileSync(path, 'latin1'));

describe('run --target', () => {
  // Reading the address is the library's: in this process. The one line on stderr, without a
  // stack, is the other stops' here.
  it('refuses an address without a scheme, suggesting it with https://', async () => {
    await expect(importHere('crs.example.com', 'no-scheme')).rejects.toMatchObject({
      message: expect.stringContaining('did you mean https://crs.example.com?'),
    });
  });

  // The target's address is read by the library (src/client/target-url.ts): in this process.
  it('takes a trailing /v1/ as the origin, and reports requests by endpoint', async () => {
    svc = await startService();
    const { report } = await importHere(`${svc.service.url}/v1/`, 'v1', svc.key);
    expect(report.exitCode, JSON.stringify(report.error)).toBe(0);
    expect(report.target).toBe(svc.service.url);
    expect(report.totals.created).toBe(12);
    const byEndpoint = report.requests.byEndpoint;
    expect(byEndpoint['GET /v1/search/contacts']).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(byEndpoint['POST /v1/contacts/']?.sent).toBeGreaterThanOrEqual(1);
    const sum = (key: 'sent' | 'retried' | 'failed') =>
      Object.values(byEndpoint).reduce((n, counts) => n + counts[key], 0);
    expect({ sent: sum('sent'), retried: sum('retried'), failed: sum('failed') }).toEqual({
      sent: report.requests.sent,
      retried: report.requests.retried,
      failed: report.requests.failed,
    });
  });

  it('refuses a URL with a user name and password; the password is in no output', async () => {
    svc = await startService();
    const password = 'Pa55wordInUrl';
    const url = svc.service.url.replace('http://', `http://admin:${password}@`);
    const result = await run(url, 'userinfo', { CONTACT_IMPORT_API_KEY: svc.key }, ['--log-level', 'trace']);
    expect(result.code).toBe(2);
    expect(oneLine(result)).toContain('CONTACT_IMPORT_API_KEY');
    expect(result.stdout + result.stderr).not.toContain(password);
    for (const text of everyFile(dir)) expect(text).not.toContain(password);
    expect(await svc.client.local.contacts()).toHaveLength(0);
  });

  // The stop and its message are the library's: in this process (how a stop reads on the command
  // line, one line and no stack, is the other stops' here).
  it('stops at once on a refused connection (no retry), naming the URL and the cause', async () => {
    const gone = await startPeer(() => undefined);
    await gone.close();
    const stop = await refusalOf(importHere(gone.url, 'refused'));
    expect(stop?.message).toContain(gone.url);
    expect(stop?.message).toContain('connection refused');
    // Nothing was read, so nothing is written: no report folder, no state folder.
    expect(existsSync(join(dir, 'refused'))).toBe(false);
    expect(existsSync(join(dir, 'state-refused'))).toBe(false);
  });

  // The default probe timeout is the library's: in this process (the flag that sets it, below,
  // is the command line's).
  it('stops after the 10 s probe timeout when the target never answers, naming it', async () => {
    peer = await startPeer(() => undefined);
    const started = performance.now();
    const stop = await refusalOf(importHere(peer.url, 'silent'));
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThan(9_000);
    expect(stop?.code).toBe('request_timeout');
    expect(stop?.message).toContain('within 10 s');
    expect(peer.requests).toHaveLength(1);
  });

  it('--timeout sets the probe timeout too: a silent target stops after it', async () => {
    peer = await startPeer(() => undefined);
    const result = await run(peer.url, 'timeout-flag', {}, ['--timeout', '1.5']);
    expect(result.code).toBe(2);
    expect(oneLine(result)).toContain('within 1.5 s');
    const bad = await run(peer.url, 'timeout-bad', {}, ['--timeout', '0']);
    expect(bad.code).toBe(2);
    expect(oneLine(bad)).toMatch(/timeout.*above 0/);
    expect(peer.requests).toHaveLength(1);
  });

  it('names where a refused key came from, never the key', async () => {
    svc = await startService();
    const wrong = 'wrong-key-0f9e8d7c6b';
    const fromEnv = await run(svc.service.url, 'key-env', { CONTACT_IMPORT_API_KEY: wrong });
    expect(fromEnv.code).toBe(2);
    expect(oneLine(fromEnv)).toContain('the API key from CONTACT_IMPORT_API_KEY was refused');
    expect(fromEnv.stderr).toMatch(/auth_failed/);
    const keyFile = join(dir, 'wrong.key');
    writeFileSync(keyFile, `${wrong}\n`);
    const fromFile = await run(svc.service.url, 'key-file', {}, ['--api-key-file', keyFile]);
    expect(fromFile.code).toBe(2);
    expect(oneLine(fromFile)).toContain(`the API key from --api-key-file ${keyFile} was refused`);
    for (const result of [fromEnv, fromFile]) expect(result.stdout + result.stderr).not.toContain(wrong);
    expect(await svc.client.local.contacts()).toHaveLength(0);
  });
});
