import { RUN_CODES, type RunCode } from './codes.js';

/** Where a run-level problem happened, when it is tied to a place in an input. */
export interface ErrorContext {
  file?: string;
  row?: number;
  line?: number;
  field?: string;
  [key: string]: unknown;
}

/**
 * A run-level problem: the run cannot start or cannot go on. Bad records never throw; they are
 * reported as issues. The message says what was got, where, and what was expected.
 */
export class ImportError extends Error {
  readonly code: RunCode;
  readonly context: ErrorContext;

  constructor(code: RunCode, message?: string, context: ErrorContext = {}, options?: { cause?: unknown }) {
    super(message ?? RUN_CODES[code], options);
    this.name = 'ImportError';
    this.code = code;
    this.context = context;
  }
}

export const isImportError = (error: unknown): error is ImportError => error instanceof ImportError;
