import type { z } from 'zod';
import type { ErrorDetail, ErrorPayload } from '../core/schemas/envelope.js';
import { SERVICE_CODES, type ServiceCode } from '../core/errors/codes.js';

/** How many problems one error answer lists; a 500-element bad bulk must not answer megabytes. */
const MAX_DETAILS = 50;

/**
 * A request the service refuses. Thrown from routes and the store (inside a transaction, so the
 * throw also rolls back); the app's error handler turns it into the error envelope.
 */
export class ServiceError extends Error {
  readonly status: number;
  readonly code: ServiceCode;
  readonly details: ErrorDetail[];
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: ServiceCode,
    message?: string,
    details: ErrorDetail[] = [],
    headers: Record<string, string> = {},
  ) {
    super(message ?? SERVICE_CODES[code]);
    this.name = 'ServiceError';
    this.status = status;
    this.code = code;
    this.details = details.slice(0, MAX_DETAILS);
    this.headers = headers;
  }
}

export const isServiceError = (error: unknown): error is ServiceError => error instanceof ServiceError;

export interface SuccessEnvelope<T> {
  error: false;
  data: T;
  nextCursor?: string;
}

export const ok = <T>(data: T, nextCursor?: string): SuccessEnvelope<T> =>
  nextCursor === undefined ? { error: false, data } : { error: false, data, nextCursor };

export const errorEnvelope = (error: ServiceError): { error: true; data: ErrorPayload } => ({
  error: true,
  data: { code: error.code, message: error.message, details: error.details },
});

const joinPath = (path: readonly PropertyKey[]): string => path.map(String).join('.');

/**
 * zod issues as details whose `path` is the full path from the body root (`contacts.3.website`,
 * `2.data.birthday_year`). `bulkRootOffset` says where the array index sits in the path, so the
 * element's `index` is given too (0 for E1's top-level array, 1 for `contacts.N`).
 */
export function zodDetails(error: z.ZodError, bulkRootOffset?: number): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of error.issues) {
    const paths =
      issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    for (const path of paths) {
      const detail: ErrorDetail = {
        path: joinPath(path),
        message:
          issue.code === 'unrecognized_keys' ? 'Unknown field; not part of this write shape.' : issue.message,
      };
      const index = bulkRootOffset === undefined ? undefined : path[bulkRootOffset];
      if (typeof index === 'number') detail.index = index;
      details.push(detail);
    }
    if (details.length >= MAX_DETAILS) break;
  }
  return details;
}

const describe = (details: ErrorDetail[]): string => {
  const first = details[0];
  if (!first) return '';
  const where = first.path === '' ? 'the body' : `'${first.path}'`;
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return `: ${where}: ${first.message}${more}`;
};

/** Validates `value` with `schema`; a failure is a 400 naming every bad path. */
export function parseOr400<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: 'body' | 'query',
  bulkRootOffset?: number,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = zodDetails(result.error, bulkRootOffset);
  const code: ServiceCode = what === 'body' ? 'invalid_body' : 'invalid_query';
  const label = what === 'body' ? 'The request body is not valid' : 'The query string is not valid';
  throw new ServiceError(400, code, `${label}${describe(details)}`, details);
}

/** Where a write sits in its request body, so a problem in it is reported at its full path. */
export interface WriteLocation {
  /** Path prefix ending in a dot, or '' for a body that is the write itself (E2). */
  prefix: string;
  /** Element index in a bulk body. */
  index?: number;
}

/**
 * A 400 for one bad value at `path` in a body: a reference that is not the user's (a group or
 * custom field id), a list grown past its cap.
 */
export const invalidBodyAt = (path: string, message: string, index?: number): ServiceError => {
  const detail: ErrorDetail = index === undefined ? { path, message } : { path, message, index };
  return new ServiceError(400, 'invalid_body', `The request body is not valid: '${path}': ${message}`, [
    detail,
  ]);
};

export const notFound = (what: string, id: string): ServiceError =>
  new ServiceError(404, 'not_found', `No ${what} with id '${id}' for this API key.`);
