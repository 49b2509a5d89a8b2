// Test support: one run through the built library (dist/) with run hooks, for the tests that stop
// a run at an exact place. The command line has no hooks; this is its stand-in for those tests.
//
//   node test/support/hooked-run.mjs '<json>'
//
// <json>: { "run": { pipeline, inputs, target?: URL, stateDir, outDir, ... }, "killAt"?: "<step>:<n>",
//           "workerExitAt"?: n }. The API key comes from CONTACT_IMPORT_API_KEY, as for the CLI.
// killAt: the process SIGKILLs itself the n-th time the run passes <step> (src/run/hooks.ts).
// The exit code is the report's, as the CLI's would be.
import { runImport } from '../../dist/index.js';

const { run, killAt, workerExitAt } = JSON.parse(process.argv[2] ?? '{}');

const killHook = (plan) => {
  const match = /^([a-z-]+):(\d+)$/.exec(plan);
  if (!match) throw new Error(`killAt must be <step>:<n>, got ${JSON.stringify(plan)}`);
  const [, point, at] = match;
  let passes = 0;
  return (step) => {
    if (step === point && ++passes === Number(at)) process.kill(process.pid, 'SIGKILL');
  };
};

const { target, ...rest } = run;
const { report } = await runImport({
  ...rest,
  ...(target ? { target: { url: target, apiKey: process.env.CONTACT_IMPORT_API_KEY ?? '' } } : {}),
  hooks: {
    ...(killAt ? { onStep: killHook(killAt) } : {}),
    ...(workerExitAt ? { workerExitAt } : {}),
  },
});
if (report.error) process.stderr.write(`contact-import: ${report.error.code}: ${report.error.message}\n`);
process.exit(report.exitCode);
