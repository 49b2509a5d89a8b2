import pino, { type Logger } from 'pino';

/**
 * pino JSON on stderr, pretty on a terminal. Paths that could hold a key are redacted on top of
 * the rule that the key is never handed to a logger at all.
 */
export const createLogger = (level: string): Logger => {
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
