import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { people, writeGenericCsv } from '../e2e/generic-csv.js';
import { runCli, startService, tempDir, type TestService } from '../e2e/harness.js';
import { startRewritingProxy, type RewritingProxy } from '../support/rewriting-proxy.js';

/**
 * The API key echoed back by a target in disguise: percent-encoded (either case), base64 and
 * base64url of the key and of `user:key` and `Bearer key`, hex, raw in a plain-text error page
 * where the 60-character excerpt would cut it, and the first part of it at the end of an answer.
 * None of these forms, and no piece of the key of 8 characters from its start, is in any byte the
 * run writes (stdout, stderr, report.json, report.html, issues.csv, rejected.csv, the ledger).
 */
const key = `sk_live/${randomBytes(12).toString('hex')}+Zq=`;
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');

/** Each form the fake target echoes, by name. */
const FORMS: Record<string, string> = {
  raw: key,
  percentUpper: encodeURIComponent(key),
  percentLower: encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
  percentAll: [...Buffer.from(key)].map((b) => `%${b.toString(16)}`).join(''),
  base64: b64(key),
  base64url: b64url(key),
  basicAuth: b64(`user:${key}`),
  basicAuthUrl: b64url(`importer:${key}`),
  bearer: b64(`Bearer ${key}`),
  hex: Buffer.from(key).toString('hex'),
};

/** The answers the target gives the creates, in turn: envelopes and plain text. */
const refusals: { contentType: string; body: string }[] = [
  ...Object.entries(FORMS).map(([name, form]) => ({
    contentType: 'application/json',
    body: JSON.stringify({
      error: true,
      data: {
        code: 'invalid_body',
        message: `token ${form} (${name}) is not allowed here`,
        details: [{ path: 'contacts.0', message: `seen ${form}` }],
      },
    }),
  })),
  // Plain text: the 60-character excerpt would cut the key after its first 33 characters.
  { contentType: 'text/html', body: `<html>Error: invalid token ${key} for this route</html>` },
  // The target cut its own echo: the answer ends with the first 20 characters of the key.
  { contentType: 'text/plain', body: `denied: ${key.slice(0, 20)}` },
];

/** Every file under `dir`, recursively. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });

let svc: TestService;
let proxy: RewritingProxy;
beforeAll(async () => {
  svc = await startService({ apiKeys: [key] });
  proxy = await startRewritingProxy(svc.service.url);
});
afterAll(async () => {
  await proxy.close();
  await svc.close();
});

describe('the API key echoed in disguise by a target', () => {
  it('is in no output, in no form, not even in part', { timeout: 90_000 }, async () => {
    const dir = tempDir();
    let turn = 0;
    proxy.answer = (req) => {
      if (req.method !== 'POST' || !/^\/v1\/contacts\/?$/.test(req.url)) return undefined;
      const refusal = refusals[turn++ % refusals.length]!;
      return { status: 400, headers: { 'content-type': refusal.contentType }, body: refusal.body };
    };
    const file = writeGenericCsv(dir, 'people.csv', people(2 * refusals.length));
    const common = ['--target', proxy.url, '--state', join(dir, 'state'), '--log-level', 'debug'];
    const runs = [
      await runCli(['run', 'generic', file, ...common, '--out', join(dir, 'one'), '--chunk-size', '4'], {
        cwd: dir,
        env: { CONTACT_IMPORT_API_KEY: key },
      }),
      await runCli(['run', 'generic', file, ...common, '--out', join(dir, 'two'), '--json'], {
        cwd: dir,
        env: { CONTACT_IMPORT_API_KEY: key },
      }),
    ];
    // Every record was refused, so every form went into the messages of the outputs.
    expect(runs.map((r) => r.code)).toEqual([1, 1]);
    expect(turn).toBeGreaterThanOrEqual(2 * refusals.length);
    const files = filesUnder(dir).filter((f) => !f.endsWith('people.csv'));
    for (const name of ['report.json', 'report.html', 'issues.csv']) {
      expect(files.some((f) => f.endsWith(name))).toBe(true);
    }
    expect(files.some((f) => /rejected/.test(f))).toBe(true);
    // The messages are there (redacted), so searching them means something.
    const issues = readFileSync(join(dir, 'one', 'issues.csv'), 'utf8');
    expect(issues).toContain('[REDACTED]');
    expect(issues).toContain('is not allowed here');

    const pieces = { ...FORMS, keyStart: key.slice(0, 8) };
    for (const [name, form] of Object.entries(pieces)) {
      for (const run of runs) {
        expect(run.stdout.includes(form), `${name} in stdout`).toBe(false);
        expect(run.stderr.includes(form), `${name} in stderr`).toBe(false);
      }
      for (const path of files) {
        expect(readFileSync(path).includes(Buffer.from(form)), `${name} in ${path}`).toBe(false);
      }
    }
  });
});
