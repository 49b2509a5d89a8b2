import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../src/run/run.js';
import { people, writeGenericCsv } from '../e2e/generic-csv.js';
import { runCli, startService, tempDir, type CliResult, type TestService } from '../e2e/harness.js';
import { HOSTILE } from './helpers.js';

/**
 * The tool's side of keeping secrets: the API key never appears in stdout, stderr, logs at trace
 * level, reports, issue and rejected files, the ledger (its WAL included) or the service's
 * database, including when requests fail (faults, a refused key). Every byte written is searched. The
 * client's own error objects (a dead target included) are covered by
 * test/contract/client/secrecy.test.ts,
 * the ledger's by test/unit/state/secrets.test.ts.
 */
const secret = (label: string) => `sk_${label}_${randomBytes(12).toString('hex')}`;

/** Every file under `dir`, recursively, except the ones named in `except`. */
const filesUnder = (dir: string, except: string[]): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (except.includes(path)) return [];
    return statSync(path).isDirectory() ? filesUnder(path, except) : [path];
  });

const expectNowhere = (
  key: string,
  outputs: Pick<CliResult, 'stdout' | 'stderr'>[],
  dirs: string[],
  except: string[] = [],
) => {
  for (const output of outputs) {
    expect(output.stdout).not.toContain(key);
    expect(output.stderr).not.toContain(key);
  }
  const files = dirs.flatMap((d) => filesUnder(d, except));
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    // Bytes, not text: a key inside a SQLite page or a WAL frame is found as well.
    expect(readFileSync(file).includes(Buffer.from(key)), file).toBe(false);
  }
};

let svc: TestService;
let serviceDir: string;
const key = secret('live');
beforeAll(async () => {
  serviceDir = tempDir();
  svc = await startService({
    db: join(serviceDir, 'service.sqlite'),
    apiKeys: [key],
    failRate: 0.25,
    resetRate: 0.1,
    seed: 5,
  });
});
afterAll(async () => {
  await svc.close();
});

describe('the API key in every output', () => {
  it(
    'appears nowhere after runs with faults, retries, warnings, rejects and trace logs',
    { timeout: 90_000 },
    async () => {
      const dir = tempDir();
      const keyFile = join(dir, 'api.key');
      writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
      const file = writeGenericCsv(dir, 'people.csv', people(60));
      const common = [
        '--target',
        svc.service.url,
        '--api-key-file',
        keyFile,
        '--state',
        join(dir, 'state'),
        '--log-level',
        'trace',
      ];
      const runs = [
        await runCli(['run', 'generic', file, ...common, '--out', join(dir, 'one'), '--chunk-size', '10'], {
          cwd: dir,
        }),
        await runCli(
          [
            'run',
            'generic',
            join(HOSTILE, 'formula-injection.csv'),
            ...common,
            '--out',
            join(dir, 'two'),
            '--json',
          ],
          { cwd: dir },
        ),
        await runCli(
          // validate takes no target: a dry run against the service is `run --dry-run`.
          [
            'run',
            'generic',
            join(HOSTILE, 'ragged-rows.csv'),
            ...common,
            '--dry-run',
            '--out',
            join(dir, 'three'),
          ],
          { cwd: dir },
        ),
      ];
      expect(runs.map((r) => r.code)).toEqual([0, 1, 1]);
      // The logs really are there (trace level), so searching them means something.
      expect(runs[0]!.stderr).toMatch(/"level":10|TRACE|"level":20|DEBUG|run finished/);
      expect(svc.service.injectedFaults().failed).toBeGreaterThan(0);
      expectNowhere(key, runs, [dir, serviceDir], [keyFile]);
    },
  );

  it('appears nowhere when the key is refused', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const wrong = secret('wrong');
    // `run generic <file> --target <svc> --log-level trace` with a refused key, in this process:
    // what the command line prints for it (exit 2, one line naming where the key came from, never
    // the key) is run-target.test.ts's. Here its one line, whatever it logs at trace level,
    // unredacted (the key is never handed to a logger at all; the command line's logger redacts on
    // top), and every file it and the service wrote.
    const logs: string[] = [];
    const logger = pino(
      { level: 'trace' },
      new Writable({
        write(line: Buffer, _encoding, done) {
          logs.push(line.toString());
          done();
        },
      }),
    );
    // Refused at the start probe: runImport throws the ImportError the command line prints.
    const refused = await runImport({
      pipeline: 'generic',
      inputs: [join(HOSTILE, 'bom-utf8.csv')],
      target: { url: svc.service.url, apiKey: wrong },
      stateDir: join(dir, 'state'),
      outDir: join(dir, 'refused'),
      logger,
    }).then(
      () => undefined,
      (error: { code?: unknown; message: string }) => error,
    );
    expect(refused?.code).toBe('auth_failed');
    const line = `${refused!.code}: ${refused!.message}`;
    expectNowhere(wrong, [{ stdout: '', stderr: [line, ...logs].join('\n') }], [dir, serviceDir]);
  });
});
