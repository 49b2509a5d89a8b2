// Test support: one run through the built library with run hooks, for the tests that stop a run at
// an exact place. The command line has no hooks; this is its stand-in for those tests. It loads
// dist/cli/library.js, the library bundled beside the command line (scripts/bundle-cli.js), so
// that its start costs what the command line's does.
//
//   node test/support/hooked-run.mjs '<json>'
//
// <json>: { "run": { pipeline, inputs, target?: URL, stateDir, outDir, ... }, "killAt"?: "<step>:<n>" }.
// The API key comes from CONTACT_IMPORT_API_KEY, as for the CLI.
// killAt: the process SIGKILLs itself the n-th time the run passes <step> (src/run/hooks.ts).
// truncateAt: { at: "<step>:<n>", path, size }: the n-th time the run passes <step>, the file at
// `path` is cut to `size` bytes (an input changing while it is read).
// The exit code is the report's, as the CLI's would be; the process is the CLI's in every other way
// (host: the target gates' folder, the garbage collector).
import { hostControls, runImport } from '../../dist/cli/library.js';
import { truncateSync } from 'node:fs';
import { exitAs, killHook, stepHook, targetOf } from './kill-hook.mjs';

const { run, killAt, truncateAt } = JSON.parse(process.argv[2] ?? '{}');
const truncateHook = (plan) => stepHook(plan.at, () => truncateSync(plan.path, plan.size));

const { target, ...rest } = run;
exitAs(
  await runImport({
    ...rest,
    ...targetOf(target),
    hostControls: hostControls(process.env),
    hooks: {
      ...(killAt ? { onStep: killHook(killAt) } : {}),
      ...(truncateAt ? { onStep: truncateHook(truncateAt) } : {}),
    },
  }),
);
