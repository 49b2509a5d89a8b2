import type { Agent, Dispatcher } from 'undici';

/** What the transport uses of undici: its connection pool per origin and one request through it. */
export interface UndiciParts {
  Agent: typeof Agent;
  request: (dispatcher: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
}

let parts: Promise<UndiciParts> | undefined;

/**
 * undici's Agent and request alone, imported when a client first sends: a command that sends
 * nothing (validate, a dry run, help) starts without them. Not undici's index, which loads all of
 * undici (fetch, WebSocket, caches, mock agents: most of its code) for two of its exports.
 */
export const loadUndiciParts = (): Promise<UndiciParts> =>
  (parts ??= Promise.all([
    import('undici/lib/dispatcher/agent.js'),
    import('undici/lib/api/api-request.js'),
  ]).then(([agent, request]) => ({
    // CommonJS files: their `module.exports` is the default export under Node and in the bundle.
    Agent: agent.default,
    request: (dispatcher, options) => request.default.call(dispatcher, options),
  })));
