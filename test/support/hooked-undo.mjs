// Test support: one undo through the built library (dist/) with its step hook, for the tests that
// stop an undo at an exact place. The command line has no hooks; this is its stand-in there.
//
//   node test/support/hooked-undo.mjs '<json>'
//
// <json>: { "undo": { run, target?: URL, stateDir, outDir, chunkSize?, ... }, "killAt"?: "<step>:<n>" }.
// The API key comes from CONTACT_IMPORT_API_KEY, as for the CLI. killAt: the process SIGKILLs
// itself the n-th time the undo passes <step> (src/undo/apply.ts). Exit code: the report's.
import { undoRun } from '../../dist/undo/index.js';

const { undo, killAt } = JSON.parse(process.argv[2] ?? '{}');

const killHook = (plan) => {
  const match = /^([a-z-]+):(\d+)$/.exec(plan);
  if (!match) throw new Error(`killAt must be <step>:<n>, got ${JSON.stringify(plan)}`);
  const [, point, at] = match;
  let passes = 0;
  return (step) => {
    if (step === point && ++passes === Number(at)) process.kill(process.pid, 'SIGKILL');
  };
};

const { target, ...rest } = undo;
const { report } = await undoRun({
  ...rest,
  ...(target ? { target: { url: target, apiKey: process.env.CONTACT_IMPORT_API_KEY ?? '' } } : {}),
  ...(killAt ? { onStep: killHook(killAt) } : {}),
});
if (report.error) process.stderr.write(`contact-import: ${report.error.code}: ${report.error.message}\n`);
process.exit(report.exitCode);
