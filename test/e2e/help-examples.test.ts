import { spawn } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from './harness.js';

/**
 * Every example in README.md and in each command's `--help` runs as written and exits
 * as its text says.
 *
 * - README: the lines of its ```sh blocks that run the command line (`node dist/cli/main.js ...`,
 *   environment assignments before it allowed). They exit 0 unless the line ends with `# exit N`.
 *   Other lines of those blocks (npm, curl, apt-get, vitest, export) are not the tool's examples;
 *   the ```ts library example and the synopsis block are not run either.
 * - `--help`: each command's "Examples:" section, a `contact-import ...` line then a line saying
 *   `exit N` (run with `node dist/cli/main.js` for `contact-import`, as the README says).
 * - Skipped, by a clear marker: an example whose target is the placeholder host `crs.example.com`
 *   needs a real remote service (listed in the skip test below).
 * - `serve` examples run until Ctrl-C: the test waits for the address line, sends SIGINT and
 *   expects exit 0.
 * - Each source runs in order in a temp copy of what examples need (samples/, pipelines/,
 *   scripts/, with dist/ and node_modules/ linked), so an example may use what one before it
 *   wrote (init's `my-pipeline.yaml`). Before the README's examples, `npm start`
 *   (scripts/import-samples.js) runs there too: the README looks at what it loaded.
 * - A line two sources both give, whose outcome cannot depend on the folder (readsNoState), runs
 *   once; each source checks it against its own text.
 */

const CLI_WORD = 'contact-import';
const REMOTE_PLACEHOLDER = 'crs.example.com';

interface Example {
  source: string;
  line: string;
  /** Exit code the text promises; undefined for a service that runs until stopped. */
  exit: number | undefined;
}

const checkout = (): string => {
  const dir = tempDir();
  for (const name of ['samples', 'pipelines', 'scripts'])
    cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'dist'), join(dir, 'dist'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
};

const isServe = (line: string): boolean => /main\.js serve\b/.test(line);

/** A line that runs the command line, after environment assignments (a value may be `$(cat file)`). */
const COMMAND_LINE = /^([A-Z_]+=(\$\([^)]*\)|\S+)\s+)*node dist\/cli\/main\.js /;

/** The command-line examples of README.md's ```sh blocks. */
const readmeExamples = (): Example[] => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .flatMap((block) => block.split('\n'))
    .filter((line) => COMMAND_LINE.test(line))
    .map((line) => {
      const promised = /#\s*exit (\d+)\s*$/.exec(line);
      const command = line.replace(/\s+#.*$/, '');
      return {
        source: 'README.md',
        line: command,
        exit: isServe(command) ? undefined : promised ? Number(promised[1]) : 0,
      };
    });
};

/** The examples of one command's --help, as printed. */
const helpExamples = (command: string, help: string): Example[] => {
  const section = /\nExamples:\n([\s\S]*?)(\n\n|$)/.exec(help);
  if (!section) return [];
  const lines = section[1]!.split('\n');
  const examples: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith(`  ${CLI_WORD} `)) continue;
    const said = lines[i + 1] ?? '';
    const exit = /\bexit (\d+)\b/.exec(said);
    const runsUntilStopped = /runs until Ctrl-C/.test(said);
    expect(exit !== null || runsUntilStopped, `${command} --help: "${line.trim()}" says how it ends`).toBe(
      true,
    );
    examples.push({
      source: `${command} --help`,
      line: line.trim().replace(new RegExp(`^${CLI_WORD} `), 'node dist/cli/main.js '),
      exit: exit ? Number(exit[1]) : undefined,
    });
  }
  return examples;
};

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a line through bash in `cwd`; a service is stopped with SIGINT once it said its address (and is listening for Ctrl-C). */
const runLine = (line: string, cwd: string, service: boolean): Promise<Ran> =>
  new Promise((resolve, reject) => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) {
      if (v !== undefined && !k.startsWith('CONTACT_IMPORT_')) env[k] = v;
    }
    const child = spawn('bash', ['-c', line], { cwd, env, detached: true });
    let stdout = '';
    let stderr = '';
    let stopped = false;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (
        service &&
        !stopped &&
        /^Local service: http:\/\/127\.0\.0\.1:\d+[\s\S]*Press Ctrl-C to stop/m.test(stdout)
      ) {
        stopped = true;
        process.kill(-child.pid!, 'SIGINT');
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // Only so a hung example does not outlive the test (240 s): on a loaded machine one may take minutes.
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 230_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end();
  });

/**
 * An example whose outcome does not depend on the folder it runs in (what an example before it
 * wrote or loaded there): `validate` and `pipelines` read only the samples and write no state, and
 * `serve` without `--db` keeps its database in memory. Such a line given by two sources (the README
 * and a command's `--help` show some of the same) runs once and both check its result.
 */
const readsNoState = (line: string): boolean =>
  /main\.js (validate|pipelines)\b/.test(line) || (isServe(line) && !/--db\b/.test(line));

const ranOnce = new Map<string, Promise<Ran>>();
const run = (example: Example, cwd: string): Promise<Ran> => {
  const service = example.exit === undefined;
  if (!readsNoState(example.line)) return runLine(example.line, cwd, service);
  if (!ranOnce.has(example.line)) ranOnce.set(example.line, runLine(example.line, cwd, service));
  return ranOnce.get(example.line)!;
};

const runAll = async (examples: Example[], cwd: string): Promise<void> => {
  for (const example of examples) {
    if (example.line.includes(REMOTE_PLACEHOLDER)) continue;
    const ran = await run(example, cwd);
    const where = `${example.source}: ${example.line}\n${ran.stdout}\n${ran.stderr}`;
    expect(ran.code, where).toBe(example.exit ?? 0);
    expect(ran.stderr, where).not.toMatch(/\n\s+at |Error:/);
    if (example.exit === undefined) expect(ran.stdout, where).toMatch(/Local service stopped/);
  }
};

const COMMANDS = ['run', 'validate', 'serve', 'pipelines', 'init', 'undo'];

/** Each command's `--help`, asked of the CLI once per file: three tests read it. */
const helps = new Map<string, ReturnType<typeof runCli>>();
const helpOf = (command: string): ReturnType<typeof runCli> => {
  if (!helps.has(command)) helps.set(command, runCli([command, '--help']));
  return helps.get(command)!;
};

describe('every example runs as written and exits as its text says', () => {
  it('README.md: npm start, then each command-line example', async () => {
    const examples = readmeExamples();
    expect(examples.length).toBeGreaterThanOrEqual(4);
    const cwd = checkout();
    const start = await runLine('node scripts/import-samples.js', cwd, false);
    expect(start.code, start.stderr).toBe(0);
    // The local-service hint once, at the end, after every run's summary.
    expect(start.stdout.split("Data went to the local service's database")).toHaveLength(2);
    expect(start.stdout.trimEnd()).toMatch(
      /Data went to the local service's database \S+local-service\.sqlite\. To look at it:\n.*serve --db .*\n.*curl .*_local\/contacts$/,
    );
    // After the last run's summary.
    expect(start.stdout.match(/^\$ contact-import run /gm)!.length).toBeGreaterThanOrEqual(4);
    expect(start.stdout.lastIndexOf('$ contact-import run ')).toBeLessThan(
      start.stdout.indexOf("Data went to the local service's database"),
    );
    await runAll(examples, cwd);
  }, 240_000);

  it.each(COMMANDS)(
    '%s --help: 2 to 4 examples, exit codes, environment, outputs; each example runs',
    async (command) => {
      const help = await helpOf(command);
      expect(help.code).toBe(0);
      const examples = helpExamples(command, help.stdout);
      expect(examples.length).toBeGreaterThanOrEqual(2);
      expect(examples.length).toBeLessThanOrEqual(4);
      expect(help.stdout).toMatch(/\nExit codes:\n {2}0 /);
      expect(help.stdout).toMatch(/\nEnvironment:\n/);
      for (const name of ['CONTACT_IMPORT_TARGET', 'CONTACT_IMPORT_API_KEY']) {
        expect(help.stdout).toContain(name);
      }
      expect(help.stdout).toMatch(/\nOutputs:\n/);
      expect(help.stdout).not.toMatch(/\[default: \[\]\]/);
      const cwd = checkout();
      await runAll(examples, cwd);
    },
    240_000,
  );

  it('skips only the examples that need a remote service, by its placeholder host', async () => {
    const help = await Promise.all(COMMANDS.map(async (c) => helpExamples(c, (await helpOf(c)).stdout)));
    const skipped = [...readmeExamples(), ...help.flat()].filter((e) => e.line.includes(REMOTE_PLACEHOLDER));
    expect(skipped.map((e) => `${e.source}: ${e.line}`)).toEqual([
      'README.md: node dist/cli/main.js run mail-client-csv export.csv --target https://crs.example.com',
      'run --help: node dist/cli/main.js run mail-client-csv export.csv --target https://crs.example.com',
    ]);
  });

  it('validate --help shows only what applies to checking files', async () => {
    const help = (await helpOf('validate')).stdout;
    const options = help.slice(help.indexOf('Options:'), help.indexOf('Examples:'));
    for (const flag of [
      '--target',
      '--api-key-file',
      '--chunk-size',
      '--concurrency',
      '--timeout',
      '--reread',
      '--dry-run',
    ]) {
      expect(options).not.toContain(flag);
    }
    for (const flag of [
      '--pipeline',
      '--out',
      '--state',
      '--max-rejects',
      '--strict',
      '--json',
      '--max-body-bytes',
    ]) {
      expect(options).toContain(flag);
    }
    expect(help).toContain('[array] [required]');
    expect(help).not.toContain('[default: []]');
  });
});
