import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Pipeline } from '../mapping/index.js';
import { canonicalJson, type InputFingerprint } from '../state/index.js';

/** An input's fingerprint plus the modification time it had, to notice a change during the run. */
export interface HashedInput {
  fingerprint: InputFingerprint;
  mtimeMs: number;
}

/** What decides a run's outcome besides its input bytes (max-rejects and chunk size do not). */
export interface DefinitionInput {
  pipeline: Pipeline;
  /** Each input's pipeline, when they are not all `pipeline`. */
  inputPipelines?: readonly Pipeline[];
  region?: string;
  strict: boolean;
  match: string;
  /** `--max-body-bytes` when set: it decides which records are `record_too_large`. */
  maxBodyBytes?: number;
  /** `--sync NAME`: a sync run reuses only a run of the same scope. */
  sync?: string;
}

const sha256File = async (path: string, signal?: AbortSignal): Promise<string> => {
  const hash = createHash('sha256');
  // Streamed: a 200 MB export is hashed in 64 KB pieces, never held in memory.
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 16, signal })) {
    hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
};

/**
 * sha256 of each input file's bytes, in order. Undefined when any input cannot be fingerprinted:
 * stdin (`-`), not a regular file, unreadable, or changed while it was hashed. The run then takes
 * the full path, which reports a real problem with the input in its usual way.
 */
export const hashInputs = async (
  paths: readonly string[],
  signal?: AbortSignal,
): Promise<HashedInput[] | undefined> => {
  const hashed: HashedInput[] = [];
  try {
    for (const path of paths) {
      if (path === '-') return undefined;
      const before = await stat(path);
      if (!before.isFile()) return undefined;
      const sha256 = await sha256File(path, signal);
      const after = await stat(path);
      if (after.size !== before.size || after.mtimeMs !== before.mtimeMs) return undefined;
      hashed.push({ fingerprint: { path, size: before.size, sha256 }, mtimeMs: before.mtimeMs });
    }
  } catch {
    return undefined;
  }
  return hashed;
};

/** True when every input still has the size and modification time it had when it was hashed. */
export const inputsUntouched = async (hashed: readonly HashedInput[]): Promise<boolean> => {
  try {
    for (const { fingerprint, mtimeMs } of hashed) {
      const now = await stat(fingerprint.path);
      if (now.size !== fingerprint.size || now.mtimeMs !== mtimeMs) return false;
    }
    return true;
  } catch {
    return false;
  }
};

let version: string | null | undefined;

/**
 * The version in this tool's package.json, found by walking up from this module (src/ or dist/,
 * or a copy of dist/ beside a package.json); undefined when there is none to be found.
 */
export const toolVersion = (): string | undefined => {
  if (version !== undefined) return version ?? undefined;
  version = null;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 4; depth++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === 'contact-import' && typeof pkg.version === 'string') {
        version = pkg.version;
        break;
      }
    } catch {
      // no package.json here: look one folder up
    }
    dir = dirname(dir);
  }
  return version ?? undefined;
};

/**
 * A hash of everything besides the input bytes that decides a run's outcome: the loaded pipeline
 * definition (as stable JSON, without the path it was loaded from), the tool version and the
 * outcome-affecting settings. Undefined when the tool version is unknown: then no two runs can be
 * told to be the same program.
 */
export const definitionFingerprint = (input: DefinitionInput): string | undefined => {
  const tool = toolVersion();
  if (tool === undefined) return undefined;
  const withoutPath = ({ file: _file, ...definition }: Pipeline) => definition;
  const text = canonicalJson({
    definition: withoutPath(input.pipeline),
    // Only when the inputs read with different pipelines, so single-pipeline fingerprints stay put.
    ...(input.inputPipelines ? { inputDefinitions: input.inputPipelines.map(withoutPath) } : {}),
    tool,
    region: input.region ?? null,
    strict: input.strict,
    match: input.match,
    // Only when given, so the fingerprints of runs before the option existed still match.
    ...(input.maxBodyBytes !== undefined ? { maxBodyBytes: input.maxBodyBytes } : {}),
    ...(input.sync !== undefined ? { sync: input.sync } : {}),
  });
  return createHash('sha256')
    .update(text ?? '')
    .digest('hex');
};
