import { readFile } from 'node:fs/promises';
import { ImportError } from '../core/errors/index.js';

/** The environment variable that holds the API key (docs/design.md: never a flag value). */
export const API_KEY_ENV = 'CONTACT_IMPORT_API_KEY';

/** A key goes into an HTTP header, so only visible ASCII is usable (RFC 6750 b64token and more). */
const USABLE_KEY = /^[\x21-\x7e]+$/;

export interface ResolveApiKeyOptions {
  /** The environment to read (the command line passes its own; the library reads none). */
  env: Readonly<Record<string, string | undefined>>;
  /** `--api-key-file`: the key is its first line. An explicit file wins over the environment. */
  file?: string;
}

/**
 * Find the API key: the first line of `file` when given, else `CONTACT_IMPORT_API_KEY`. Errors say
 * where the key was looked for and what was wrong, and never echo a value.
 */
export async function resolveApiKey(opts: ResolveApiKeyOptions): Promise<string> {
  if (opts.file !== undefined) {
    return readKeyFile(opts.file);
  }
  const fromEnv = opts.env[API_KEY_ENV]?.trim();
  if (fromEnv === undefined || fromEnv === '') {
    throw new ImportError(
      'api_key_missing',
      `No API key: the environment variable ${API_KEY_ENV} is ${fromEnv === undefined ? 'not set' : 'empty'} ` +
        'and no --api-key-file was given; set one of them.',
      { field: API_KEY_ENV },
    );
  }
  assertUsable(fromEnv, `the environment variable ${API_KEY_ENV}`);
  return fromEnv;
}

async function readKeyFile(file: string): Promise<string> {
  let content: string;
  try {
    content = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'read error';
    throw new ImportError(
      'api_key_missing',
      `No API key: the --api-key-file ${file} cannot be read (${reason}); expected a file whose first line is the key.`,
      { file },
    );
  }
  const firstLine =
    content
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/, 1)[0]
      ?.trim() ?? '';
  if (firstLine === '') {
    throw new ImportError(
      'api_key_missing',
      `No API key: the first line of the --api-key-file ${file} is empty; expected the key on that line.`,
      { file, line: 1 },
    );
  }
  assertUsable(firstLine, `the first line of the --api-key-file ${file}`);
  return firstLine;
}

/** Rejects keys that cannot be sent in a header, describing the problem without the value. */
export function assertUsable(key: string, where: string): void {
  if (!USABLE_KEY.test(key)) {
    throw new ImportError(
      'config_invalid',
      `The API key in ${where} contains spaces or characters that cannot be sent in an HTTP header ` +
        `(${key.length} characters); expected visible ASCII only.`,
    );
  }
}
