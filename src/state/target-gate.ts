import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { lockHolder, tryLock, type LockHolder } from './os-lock.js';

/**
 * The machine's gates, one per target and user (scope), shared by every state directory:
 * `CONTACT_IMPORT_LOCK_DIR`, else `$XDG_CACHE_HOME/contact-import/targets` (`~/.cache/...`). The
 * command line reads them from its environment; the library is given the folder, or takes the
 * default with no environment (`gateDir({})`).
 */
export const gateDir = (env: Readonly<Record<string, string | undefined>>): string =>
  env.CONTACT_IMPORT_LOCK_DIR ||
  join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'contact-import', 'targets');

/**
 * Scopes share 256 gate files (by the first byte of their id), so the folder never grows; two
 * scopes that share one wait for each other, which costs time, never correctness. Each holder
 * names its scope, so a run that waited for another target's run still resolves as if it had not
 * waited (`waited` false): only a run of its own scope can have changed its target.
 */
const gateFile = (dir: string, scopeId: string): string => join(dir, `${scopeId.slice(0, 2)}.lock`);

const POLL_MS = 250;

export interface TargetGate {
  /** Another run held the gate when this one came: what this run resolved before may be stale. */
  waited: boolean;
  release(): void;
}

export type GateOutcome =
  | { entered: TargetGate }
  /** The signal fired while waiting: the run loads nothing. */
  | { interrupted: true }
  /** No gate could be made here (an unwritable cache folder): the run loads without one. */
  | { unavailable: string };

/**
 * docs/design.md "One run per state directory", across state directories: two runs that load into the
 * same target as the same user from different state directories never create a person twice,
 * because the second ledger cannot know what the first creates. On one machine they take turns:
 * a run holds its scope's gate from the start of its load to its end, and a run that finds it held
 * waits (telling `onWait` who holds it), then resolves every record against the target afresh.
 * The gate is an OS lock (os-lock.ts): a holder that dies frees it.
 */
export const enterTargetGate = async (
  scopeId: string,
  run: { runId: string; since: Date },
  options: { signal?: AbortSignal; onWait?: (holder: LockHolder | undefined) => void; dir?: string } = {},
): Promise<GateOutcome> => {
  const dir = options.dir ?? gateDir({});
  const file = gateFile(dir, scopeId);
  let waited = false;
  for (;;) {
    let attempt;
    try {
      mkdirSync(dir, { recursive: true });
      attempt = tryLock(file, { ...run, scope: scopeId });
    } catch (error) {
      return { unavailable: `cannot use ${file}: ${(error as Error).message}` };
    }
    if ('held' in attempt) {
      const { held } = attempt;
      return { entered: { waited, release: () => held.release() } };
    }
    if (!waited) {
      const holder = await lockHolder(file);
      // A holder that names another scope loads into another target (or as another user): waiting
      // for it changes nothing here. One that cannot be told counts as this scope's.
      if (holder?.scope === undefined || holder.scope === scopeId) {
        options.onWait?.(holder);
        waited = true;
      }
    }
    if (options.signal?.aborted) return { interrupted: true };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (options.signal?.aborted) return { interrupted: true };
  }
};
