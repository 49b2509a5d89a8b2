import { isConnectFailure } from './causes.js';
import { createCaller, type Caller } from './caller.js';
import { bindEndpoints } from './endpoint.js';
import { API_ENDPOINTS } from './endpoints.js';
import { answerLost, type RequestError } from './errors.js';
import type { CallOptions, ClientOptions, ServiceClient } from './types.js';

/** The typed client of the service: one method per endpoint, retries, a shared concurrency limit. */
export function createClient(options: ClientOptions): ServiceClient {
  return clientOn(createCaller(options));
}

/** The service's methods over a caller (test support adds the local service's inspection routes). */
export function clientOn(caller: Caller): ServiceClient {
  return {
    ...bindEndpoints(API_ENDPOINTS, caller.invoke),
    probe: (opts?: CallOptions) => probe(caller, opts),
    createContactsLossFinal: (contacts, opts) =>
      caller.invoke(API_ENDPOINTS.createContacts, API_ENDPOINTS.createContacts.parts(contacts, opts), {
        final: answerLost,
      }),
    stats: caller.stats,
    close: caller.close,
  };
}

/**
 * At the start probe a wrong address is far likelier than a passing hiccup: a connection that
 * cannot be opened (refused, DNS, TLS) or an answer that does not come in time ends it at once
 * instead of after every retry. Answers that ask for a retry (503, 429, resets) are still retried.
 */
const finalAtProbe = (error: RequestError): boolean =>
  error.code === 'request_timeout' || isConnectFailure(error.networkCode);

async function probe(caller: Caller, opts: CallOptions | undefined): Promise<{ holdsContacts: boolean }> {
  const page = await caller.invoke(
    API_ENDPOINTS.globalSearch,
    { ...opts, query: { take: 1, archived: true } },
    { timeoutMs: caller.probeTimeoutMs, final: finalAtProbe },
  );
  return { holdsContacts: page.contacts.length > 0 };
}
