import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readBody, type BodyLimits } from './body-reader.js';
import { ServiceError } from './envelope.js';

/** No write shape nests deeper than a handful of levels; far deeper input is hostile. */
export const MAX_JSON_DEPTH = 32;

/** Depth of nested arrays/objects, walked without recursion so hostile input cannot blow the stack. */
function exceedsDepth(root: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (typeof value !== 'object' || value === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** A body as JSON: every parse failure (RangeError included) a 400, and a depth cap. */
function parseJson(body: Buffer): unknown {
  if (body.length === 0) {
    throw new ServiceError(400, 'invalid_json', 'The request body is empty; expected JSON.');
  }
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ServiceError(
      400,
      'invalid_json',
      `The request body is not valid JSON: ${reason.slice(0, 200)}`,
    );
  }
  if (exceedsDepth(value, MAX_JSON_DEPTH)) {
    throw new ServiceError(
      400,
      'invalid_body',
      `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`,
      [{ path: '', message: `Expected at most ${MAX_JSON_DEPTH} levels of nested arrays and objects.` }],
    );
  }
  return value;
}

const bodyBytes = new WeakMap<FastifyRequest, Buffer>();

/** The request's body as it came (an idempotent create fingerprints these bytes); undefined without one. */
export const bodyBytesOf = (request: FastifyRequest): Buffer | undefined => bodyBytes.get(request);

/**
 * The only body parser: JSON, read by `readBody` (size limit while streaming, chunked bodies
 * included, and a time limit). Other content types get fastify's 415.
 */
export function registerJsonBody(app: FastifyInstance, limits: BodyLimits): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', async (request: FastifyRequest, payload: Readable) => {
    const bytes = await readBody(payload, request.headers['content-length'], limits);
    const value = parseJson(bytes);
    bodyBytes.set(request, bytes);
    return value;
  });
}
