import { ImportError } from '../core/errors/index.js';

/**
 * Runs one ledger operation and turns any database failure (disk full, locked by another process,
 * a closed connection) into ImportError('state_error') naming the file and the operation, so the
 * run reports it with our code instead of a bare SQLite message. ImportErrors pass through.
 */
export function guarded<T>(file: string, operation: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(
      'state_error',
      `Cannot ${operation} in the ledger ${file}: ${describe(error)}.`,
      { file },
      {
        cause: error,
      },
    );
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
