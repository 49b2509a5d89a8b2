// Test support: a step hook that SIGKILLs its own process the n-th time a run (or an undo) passes
// a step, for the tests that stop one at an exact place (hooked-run.mjs, hooked-undo.mjs).
//
// plan: "<step>:<n>", a step name of src/load/steps.ts or src/undo/apply.ts.
export const killHook = (plan) => stepHook(plan, () => process.kill(process.pid, 'SIGKILL'));

/** A step hook that does `act` the n-th time the run passes the step of `plan` ("<step>:<n>"). */
export const stepHook = (plan, act) => {
  const match = /^([a-z-]+):(\d+)$/.exec(plan);
  if (!match) throw new Error(`a step plan must be <step>:<n>, got ${JSON.stringify(plan)}`);
  const [, point, at] = match;
  let passes = 0;
  return (step) => {
    if (step === point && ++passes === Number(at)) act();
  };
};

/** The CLI's target option: the URL given, the key from CONTACT_IMPORT_API_KEY as for the CLI. */
export const targetOf = (url) =>
  url ? { target: { url, apiKey: process.env.CONTACT_IMPORT_API_KEY ?? '' } } : {};

/** Ends as the CLI would: the run-level error on stderr, the report's exit code. */
export const exitAs = ({ report }) => {
  if (report.error) process.stderr.write(`contact-import: ${report.error.code}: ${report.error.message}\n`);
  process.exit(report.exitCode);
};
