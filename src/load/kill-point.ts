/**
 * TEST-ONLY crash hook, for the crash-and-resume tests in test/reliability/. With
 * `CONTACT_IMPORT_TEST_KILL_AT=<point>:<n>` in the environment the process SIGKILLs itself the
 * n-th time it passes `<point>`, so a test can stop a run at an exact, reproducible place instead of
 * racing a timer. Unset (every real run) it is one comparison per call. Points:
 *   read            the reader reported progress (every 1,024 records, and at the end)
 *   group           a group or custom field was created on the target, not yet in the ledger
 *   create-recorded a create chunk is in the ledger, not yet sent
 *   create-answered the target answered a create, the ledger does not know the ids yet
 *   create-done     a create chunk is complete in the ledger (between chunks)
 */
export type KillPoint = 'read' | 'group' | 'create-recorded' | 'create-answered' | 'create-done';

const parse = (value: string | undefined): { point: string; at: number } | undefined => {
  const match = /^([a-z-]+):(\d+)$/.exec(value ?? '');
  return match ? { point: match[1]!, at: Number(match[2]) } : undefined;
};

const target = parse(process.env.CONTACT_IMPORT_TEST_KILL_AT);
let passes = 0;

export const killPoint = (point: KillPoint): void => {
  if (target === undefined || target.point !== point) return;
  passes += 1;
  if (passes === target.at) process.kill(process.pid, 'SIGKILL');
};
