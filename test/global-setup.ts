import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Where the suite's own temp root is announced to test workers (and the CLIs they spawn). */
export const SUITE_TMP_ENV = 'CONTACT_IMPORT_TEST_TMP_ROOT';

const TMP_VARIABLES = ['TMPDIR', 'TMP', 'TEMP'] as const;

/** A memory filesystem the suite's temp root may go on (Linux), and the room it must have free. */
const MEMORY_FILESYSTEM = '/dev/shm';
const MEMORY_ROOM_BYTES = 4 * 1024 ** 3;

/**
 * Where the suite's temp root is made: TMPDIR when the developer set one; else a memory filesystem
 * with room to spare, as nothing the suite writes is meant to outlive it, and the disk's syncs that
 * ledger commits wait for are not what the tests check; else the system's temp folder. A
 * container's small /dev/shm (64 MB by default) is passed over.
 */
const tempParent = (): string => {
  if (process.env.TMPDIR) return tmpdir();
  try {
    const { bavail, bsize } = statfsSync(MEMORY_FILESYSTEM);
    if (bavail * bsize >= MEMORY_ROOM_BYTES) return MEMORY_FILESYSTEM;
  } catch {
    // No such filesystem here (macOS, Windows): the system's temp folder.
  }
  return tmpdir();
};

/**
 * Points every temp directory of the run (test workers, spawned CLIs, local services) at one
 * suite-level folder, so a test that forgets to clean up cannot leave anything behind:
 * the teardown removes the whole folder. Workers are forked after setup and inherit the env.
 */
const redirectTempDirectory = (): (() => void) => {
  const saved = TMP_VARIABLES.map((name) => [name, process.env[name]] as const);
  const root = mkdtempSync(join(tempParent(), 'contact-import-tests-'));
  for (const name of TMP_VARIABLES) process.env[name] = root;
  process.env[SUITE_TMP_ENV] = root;
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    delete process.env[SUITE_TMP_ENV];
    rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
};

/** The newest modification time of the files under `dir` (0 when it does not exist). */
const newest = (dir: string): number => {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
};

/**
 * What the build writes after tsc: the CLI, the library the tests' hooked stand-ins of it load
 * (test/support/hooked-run.mjs), both by scripts/bundle-cli.js, and the parsed built-in pipelines
 * (scripts/parse-builtins.js). tsc's own files do not tell whether those are current: `npm test`'s
 * type check (tsc -b) emits what changed in src/ into dist/ before vitest starts, and leaves these
 * as they were.
 */
const AFTER_TSC = [
  join('dist', 'cli', 'main.js'),
  join('dist', 'cli', 'library.js'),
  join('dist', 'parsed-builtins.json'),
];

/** The oldest modification time of `files` (0 when one does not exist). */
const oldest = (files: readonly string[]): number =>
  Math.min(...files.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));

/**
 * End-to-end tests run the built CLI (the bundle), so every test run builds first, unless what the
 * build writes last is newer than every source file (as right after `npm ci`, whose prepare step
 * built it).
 */
export default function setup(): () => void {
  const root = resolve(import.meta.dirname, '..');
  const built = oldest(AFTER_TSC.map((file) => join(root, file))) >= newest(join(root, 'src'));
  if (!built) {
    // What `npm run build` does: tsc (forced: an incremental build would not emit again the
    // dist/cli/main.js the bundle replaced), the CLI and the hooked library bundled into dist/cli/,
    // the built-in pipelines parsed.
    const steps = [
      [resolve(root, 'node_modules/typescript/bin/tsc'), '-b', resolve(root, 'tsconfig.json'), '--force'],
      [resolve(root, 'scripts/bundle-cli.js')],
      [resolve(root, 'scripts/parse-builtins.js')],
    ];
    for (const step of steps) execFileSync(process.execPath, step, { cwd: root, stdio: 'inherit' });
  }
  return redirectTempDirectory();
}
