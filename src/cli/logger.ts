import { createRequire } from 'node:module';
import type { Logger } from 'pino';

type Pino = typeof import('pino');

/** pino's own numbers for the levels `--log-level` takes; a message below the level is dropped. */
const LEVEL_VALUES: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};

const LOG_METHODS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);

const requireFromHere = createRequire(import.meta.url);

/**
 * pino JSON on stderr, pretty on a terminal. Paths that could hold a key are redacted on top of
 * the rule that the key is never handed to a logger at all.
 */
const createPino = (level: string): Logger => {
  const pino = requireFromHere('pino') as Pino;
  const options = {
    level,
    redact: {
      paths: ['apiKey', '*.apiKey', 'headers.authorization', '*.headers.authorization', 'authorization'],
      censor: '[REDACTED]',
    },
  };
  if (process.stderr.isTTY && level !== 'silent') {
    return pino(
      options,
      pino.transport({ target: 'pino-pretty', options: { destination: 2, colorize: true } }),
    );
  }
  return pino(options, pino.destination(2));
};

/**
 * The run's logger, made on the first message at or above `level` (or the first use of anything
 * else of it): most runs log nothing at the default level, and loading pino is a good part of a
 * short run's start. What it writes, and where, is pino's either way.
 */
export const createLogger = (level: string): Logger => {
  let made: Logger | undefined;
  const logger = (): Logger => (made ??= createPino(level));
  const threshold = LEVEL_VALUES[level] ?? LEVEL_VALUES.trace!;
  return new Proxy({} as Logger, {
    get: (_, key) => {
      if (typeof key === 'string' && LOG_METHODS.has(key) && made === undefined) {
        return (...args: unknown[]) => {
          if (LEVEL_VALUES[key]! < threshold) return;
          (logger()[key as 'info'] as (...a: unknown[]) => void)(...args);
        };
      }
      const value: unknown = Reflect.get(logger(), key);
      return typeof value === 'function' ? value.bind(logger()) : value;
    },
  });
};
