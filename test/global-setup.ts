import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/** End-to-end tests run the built CLI, so the build is part of every test run. */
export default function setup(): void {
  const root = resolve(import.meta.dirname, '..');
  execFileSync(
    process.execPath,
    [resolve(root, 'node_modules/typescript/bin/tsc'), '-p', resolve(root, 'tsconfig.json')],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
