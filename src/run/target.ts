import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { makeFolder } from '../core/make-folder.js';
import { join } from 'node:path';
import type { ClientOptions, ServiceClient } from '../client/index.js';
import { isRequestError } from '../client/errors.js';
import { parseTargetUrl } from '../client/target-url.js';
import { ImportError, RUN_CODES, type RunCode } from '../core/errors/index.js';
import type { LocalService } from '../server/index.js';
import { LOCAL_TARGET, scopeId } from '../state/index.js';

export interface TargetSpec {
  url: string;
  apiKey: string;
  /** Where the key came from, named if the target refuses it: `CONTACT_IMPORT_API_KEY`, `--api-key-file PATH`. */
  keySource?: string;
}

export interface ConnectedTarget {
  /** What report.json says: the URL, or `local`. */
  label: string;
  client?: ServiceClient;
  scopeId?: string;
  /** The target held no contacts when the run began. */
  empty: boolean;
  /** Set when the run started the local service itself. */
  local?: { url: string; db: string; keyFile: string };
  close(): Promise<void>;
}

export const LOCAL_DB_FILE = 'local-service.sqlite';
export const LOCAL_KEY_FILE = 'local-service.key';

/** The local target's key lives beside its database, readable by the user only. */
const localApiKey = (stateDir: string): { key: string; file: string } => {
  const file = join(stateDir, LOCAL_KEY_FILE);
  if (existsSync(file)) return { key: readFileSync(file, 'utf8').trim(), file };
  const key = `local_${randomBytes(24).toString('base64url')}`;
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return { key, file };
};

/**
 * docs/design.md: `--target` (or CONTACT_IMPORT_TARGET) with the key from the environment or a file;
 * with no target, `run` starts the local service in-process with its database in the state
 * directory. A dry run with no target and no local database needs no service at all. The target is
 * probed once before any record is read, so a bad key or an unreachable target stops the run
 * before anything is sent.
 */
export const connectTarget = async (options: {
  target?: TargetSpec;
  stateDir: string;
  dryRun: boolean;
  client?: Partial<ClientOptions>;
}): Promise<ConnectedTarget> => {
  let spec = options.target;
  let service: LocalService | undefined;
  let local: ConnectedTarget['local'];
  if (!spec) {
    const db = join(options.stateDir, LOCAL_DB_FILE);
    if (options.dryRun) {
      // A dry run against the local default starts no service and sends no search: the ledger
      // knows exactly what this tool loaded there, so it alone tells creates from updates.
      const keyFile = join(options.stateDir, LOCAL_KEY_FILE);
      const known = existsSync(db) && existsSync(keyFile);
      const key = known ? readFileSync(keyFile, 'utf8').trim() : undefined;
      return {
        label: 'local',
        empty: true,
        ...(key ? { scopeId: scopeId(LOCAL_TARGET, key) } : {}),
        close: async () => {},
      };
    }
    makeFolder(options.stateDir);
    const { key, file } = localApiKey(options.stateDir);
    // The local service (fastify and all) is loaded only by the runs that start it.
    const { startLocalService } = await import('../server/index.js');
    service = await startLocalService({ host: '127.0.0.1', port: 0, db, apiKeys: [key] });
    spec = { url: service.url, apiKey: key, keySource: `the local service's key file ${file}` };
    local = { url: service.url, db, keyFile: file };
  }
  // Checked before anything else: a URL with a password in it must not reach any report or log.
  const url = parseTargetUrl(spec.url).url;
  const { createClient } = await import('../client/index.js');
  const client = createClient({
    ...options.client,
    baseUrl: url,
    apiKey: spec.apiKey,
    keySource: spec.keySource ?? 'the target option (apiKey)',
  });
  const close = async () => {
    await client.close();
    await service?.close();
  };
  let empty: boolean;
  try {
    empty = !(await client.probe()).holdsContacts;
  } catch (error) {
    await close();
    throw probeError(error, local ? 'local service' : url);
  }
  return {
    label: local ? 'local' : url,
    client,
    // The local target's port changes every run; it is one per state directory (and so per ledger).
    scopeId: scopeId(local ? LOCAL_TARGET : url, spec.apiKey),
    empty,
    ...(local ? { local } : {}),
    close,
  };
};

/** The probe's failure as one line that names the target, what happened, and what to do. */
const probeError = (error: unknown, where: string): ImportError => {
  const context = { target: where };
  if (!isRequestError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return new ImportError(
      'service_error',
      `the target ${where} failed the start probe: ${message}`,
      context,
    );
  }
  if (error.code === 'aborted')
    return new ImportError(
      'interrupted',
      `stopped while waiting for the target ${where} at the start probe`,
      context,
    );
  if (error.code === 'target_busy') return targetBusy(error, context);
  if (error.status === 401)
    return new ImportError(
      'auth_failed',
      `the target ${where} refused the API key: ${error.message}`,
      context,
    );
  if (error.code === 'request_timeout')
    return new ImportError(
      'request_timeout',
      `the target ${where} did not answer the start probe in time: ${error.message}; check the URL, ` +
        'or give a slow target more time with --timeout SECONDS',
      context,
    );
  if (error.status === undefined && error.code === 'target_unreachable')
    return new ImportError(
      'target_unreachable',
      `cannot reach ${where}: ${error.message}; check the URL and that the service runs there`,
      context,
    );
  const code: RunCode = error.code in RUN_CODES ? (error.code as RunCode) : 'service_error';
  return new ImportError(
    code,
    `the target ${where} answered the start probe with an error: ${error.message}`,
    context,
  );
};

/** The target asked for a longer wait than --max-wait allows: when to come back, and the flag. */
export const targetBusy = (error: { message: string }, context: Record<string, unknown> = {}): ImportError =>
  new ImportError(
    'target_busy',
    `${error.message}; run the same command after that time, or allow a longer wait with --max-wait SECONDS`,
    context,
  );
