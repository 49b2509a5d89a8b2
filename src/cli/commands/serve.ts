import type { CommandModule } from 'yargs';
import { isImportError } from '../../core/errors/index.js';
import type { LocalServiceOptions } from '../../server/index.js';
import { FLAG_TABLE } from '../flag-table.js';
import { serveEpilogue } from '../help-text.js';
import { STOP_SIGNALS } from '../signals.js';
import { flagsFor, helpText } from '../help-shown.js';

export interface ServeArgs {
  host: string;
  port: number;
  db: string;
  'api-key'?: (string | number)[];
  'max-bulk'?: number;
  'rate-limit'?: number;
  'fail-rate'?: number;
  'reset-rate'?: number;
  'cut-rate'?: number;
  'slow-rate'?: number;
  'slow-ms'?: number;
  latency?: number;
  seed?: number;
  'body-timeout-ms'?: number;
  idempotency?: boolean;
  'legacy-auth-header'?: string;
  'rate-limit-headers'?: boolean;
}

/** `--api-key` (repeatable) or else `CONTACT_IMPORT_SERVE_KEYS` (comma-separated). */
export function serveKeys(args: Pick<ServeArgs, 'api-key'>, env: NodeJS.ProcessEnv): string[] {
  const fromFlags = (args['api-key'] ?? []).map(String).filter((key) => key !== '');
  if (fromFlags.length > 0) return fromFlags;
  return (env.CONTACT_IMPORT_SERVE_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
}

/** The parsed flags as the server module's options (it never reads argv itself). */
export function serveOptions(args: ServeArgs, env: NodeJS.ProcessEnv): LocalServiceOptions {
  return {
    host: args.host,
    port: args.port,
    db: args.db,
    apiKeys: serveKeys(args, env),
    maxBulk: args['max-bulk'],
    rateLimit: args['rate-limit'],
    failRate: args['fail-rate'],
    resetRate: args['reset-rate'],
    cutRate: args['cut-rate'],
    slowRate: args['slow-rate'],
    slowMs: args['slow-ms'],
    latencyMs: args.latency,
    seed: args.seed,
    bodyTimeoutMs: args['body-timeout-ms'],
    idempotency: args.idempotency,
    ...(args['rate-limit-headers'] === false ? { rateLimitHeaders: false } : {}),
    ...(args['legacy-auth-header'] !== undefined ? { legacyAuthHeader: args['legacy-auth-header'] } : {}),
  };
}

/** One line saying why the service did not start (never a stack trace). */
export function startupProblem(error: unknown, args: Pick<ServeArgs, 'port'>): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return `port ${args.port} is already in use; give another with --port, or --port 0 for any free one.`;
  }
  if (code === 'EACCES') return `not allowed to listen on port ${args.port}; pick a port above 1023.`;
  const message = isImportError(error) || error instanceof Error ? error.message : String(error);
  return message.replace(/\s*\n\s*/g, ' ');
}

const untilSignal = (): Promise<NodeJS.Signals> =>
  new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      for (const s of STOP_SIGNALS) process.off(s, stop);
      resolve(signal);
    };
    for (const s of STOP_SIGNALS) process.on(s, stop);
  });

export const serveCommand: CommandModule<object, ServeArgs> = {
  command: 'serve',
  describe: 'Run the local service (the service API on SQLite) until Ctrl-C',
  builder: (yargs) => yargs.options(flagsFor(FLAG_TABLE.serve)).epilogue(helpText(serveEpilogue)),
  handler: async (args) => {
    const options = serveOptions(args, process.env);
    let service;
    try {
      const { startLocalService } = await import('../../server/index.js');
      service = await startLocalService(options);
    } catch (error) {
      process.stderr.write(
        `contact-import: cannot start the local service on ${args.host}:${args.port}: ${startupProblem(error, args)}\n`,
      );
      process.exitCode = 2;
      return;
    }
    // Listening for Ctrl-C before saying so: a stop right after the banner still closes the database.
    const stopped = untilSignal();
    process.stdout.write(
      `Local service: ${service.url}  (v1 at ${service.url}/v1, E11 at ${service.url}/api/rest)\n`,
    );
    if (options.apiKeys?.length === 0) {
      process.stdout.write(`API key: ${service.apiKeys[0] ?? ''}  (generated; shown once)\n`);
    }
    process.stdout.write('Press Ctrl-C to stop.\n');
    await stopped;
    await service.close();
    process.stdout.write('Local service stopped.\n');
  },
};
