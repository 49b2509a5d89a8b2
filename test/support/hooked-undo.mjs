// Test support: one undo through the built library (dist/cli/library.js, bundled like the command
// line) with its step hook, for the tests that stop an undo at an exact place. The command line
// has no hooks; this is its stand-in there.
//
//   node test/support/hooked-undo.mjs '<json>'
//
// <json>: { "undo": { run, target?: URL, stateDir, outDir, chunkSize?, ... }, "killAt"?: "<step>:<n>" }.
// The API key comes from CONTACT_IMPORT_API_KEY, as for the CLI. killAt: the process SIGKILLs
// itself the n-th time the undo passes <step> (src/undo/apply.ts). Exit code: the report's.
import { undoRun } from '../../dist/cli/library.js';
import { exitAs, killHook, targetOf } from './kill-hook.mjs';

const { undo, killAt } = JSON.parse(process.argv[2] ?? '{}');

const { target, ...rest } = undo;
exitAs(
  await undoRun({
    ...rest,
    ...targetOf(target),
    ...(killAt ? { onStep: killHook(killAt) } : {}),
  }),
);
