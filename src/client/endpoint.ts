import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT';
export type QueryValue = string | number | boolean | undefined;

/**
 * How a request may be repeated after a failure without an answer or with a retryable status:
 * - `read`: a GET, free to repeat;
 * - `update`: a PUT, applying it twice equals once under the service's merge rules;
 * - `create`: a POST, repeated only under one `Idempotency-Key` (the caller's, or one the client
 *   makes per call), so the client's own retries never create twice.
 */
export type RetryClass = 'read' | 'update' | 'create';

/** What one call puts into its request, built by the endpoint from the method's arguments. */
export interface RequestParts<Body = unknown> {
  /** Replaces `{id}` in the route (URL-encoded). */
  id?: string;
  query?: Record<string, QueryValue>;
  body?: Body;
  /** The body as JSON text already; wins over `body` (sent byte for byte). */
  bodyJson?: string;
  /** `create` endpoints only: sent as `Idempotency-Key` on every attempt of the call. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /**
   * `create` endpoints only: called once, synchronously, as the call's first attempt is handed to
   * the network (after its place in the concurrency limit and the pace). What it throws stops the
   * call before anything is sent, and the call rejects with it.
   */
  onSent?: () => void;
  /** `create` endpoints only: the target answered `Idempotent-Replayed: true` (it honours the key). */
  onReplayed?: () => void;
}

/**
 * One endpoint, declared: the client binds each entry of a table into a method whose arguments
 * are those of `parts` and whose result is `result` of the checked answer.
 */
export interface Endpoint<
  Args extends unknown[],
  Request extends z.ZodType,
  Response extends z.ZodType,
  Out,
> {
  method: HttpMethod;
  /** The route as docs/api-reference.md writes it, ids as `{id}`: also the key of the per-endpoint counts. */
  route: string;
  retry: RetryClass;
  /** `legacy`: the older endpoint, under `{legacy_base_url}` (E11); absent: under the target. */
  base?: 'legacy';
  /**
   * The body the service accepts, from the schemas it validates with: it types `parts`' body. The
   * client does not validate bodies itself (records are validated before they are staged, and the
   * service answers 400 with details).
   */
  request?: Request;
  /** What a success answer must look like; a 2xx that does not match is a final error. */
  response: Response;
  parts: (...args: Args) => RequestParts<z.output<Request>>;
  result: (answer: z.output<Response>) => Out;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a table holds endpoints of any shape
export type AnyEndpoint = Endpoint<any, any, any, any>;

/** Keeps the entry's types for the table (arguments, body, answer, result). */
export const defineEndpoint = <
  Args extends unknown[],
  Response extends z.ZodType,
  Out,
  Request extends z.ZodType = z.ZodNever,
>(
  endpoint: Endpoint<Args, Request, Response, Out>,
): Endpoint<Args, Request, Response, Out> => endpoint;

/** `"POST /v1/contacts/"`: how reports name an endpoint (`requests.byEndpoint`). */
export const endpointKey = (endpoint: Pick<AnyEndpoint, 'method' | 'route'>): string =>
  `${endpoint.method} ${endpoint.route}`;

/** The path of one request: the route with its `{id}` filled in. */
export function pathOf(route: string, id: string | undefined): string {
  if (!route.includes('{id}')) return route;
  if (id === undefined) throw new TypeError(`The route ${route} needs an id; none was given.`);
  return route.replace('{id}', encodeURIComponent(id));
}

/** One method per entry of a table, each calling `invoke` with its endpoint and request parts. */
export type BoundEndpoints<Table extends Record<string, AnyEndpoint>> = {
  [Name in keyof Table]: Table[Name] extends {
    parts: (...args: infer Args) => unknown;
    result: (answer: never) => infer Out;
  }
    ? (...args: Args) => Promise<Out>
    : never;
};

export function bindEndpoints<Table extends Record<string, AnyEndpoint>>(
  table: Table,
  invoke: (endpoint: AnyEndpoint, parts: RequestParts) => Promise<unknown>,
): BoundEndpoints<Table> {
  const methods = Object.entries(table).map(([name, endpoint]) => [
    name,
    (...args: unknown[]) => invoke(endpoint, endpoint.parts(...args)),
  ]);
  return Object.fromEntries(methods) as BoundEndpoints<Table>;
}
