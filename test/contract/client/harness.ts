import type { ClientOptions } from '../../../src/client/index.js';
import { createLocalClient, type LocalClient } from '../../support/local-client.js';
import { startLocalService } from '../../../src/server/index.js';

export type LocalService = Awaited<ReturnType<typeof startLocalService>>;
export type ServiceOptions = Omit<Parameters<typeof startLocalService>[0], 'port'>;

/** Keys the contract tests give their users; long and distinctive so a leak is easy to spot. */
export const KEY_A = 'contract-key-alpha-0a1b2c3d4e5f';
export const KEY_B = 'contract-key-bravo-6a7b8c9d0e1f';

export interface Harness {
  service: LocalService;
  /** A client of user A. */
  client: LocalClient;
  /** Another client with the same options, for another key (user B by default). */
  clientFor(apiKey: string, options?: Partial<ClientOptions>): LocalClient;
  close(): Promise<void>;
}

/** The real local service on 127.0.0.1, port 0, with users A and B, and a fast-retrying client of A. */
export async function startHarness(
  serviceOptions: ServiceOptions = {},
  clientOptions: Partial<ClientOptions> = {},
): Promise<Harness> {
  const service = await startLocalService({ apiKeys: [KEY_A, KEY_B], ...serviceOptions, port: 0 });
  const clients: LocalClient[] = [];
  const clientFor = (apiKey: string, options: Partial<ClientOptions> = {}) => {
    const client = createLocalClient({
      baseUrl: service.url,
      apiKey,
      minRetryDelayMs: 5,
      maxRetryDelayMs: 50,
      ...clientOptions,
      ...options,
    });
    clients.push(client);
    return client;
  };
  const client = clientFor(KEY_A);
  return {
    service,
    client,
    clientFor,
    close: async () => {
      await Promise.all(clients.map((c) => c.close()));
      await service.close();
    },
  };
}

/** The rejection of `promise`, which must reject. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => ({ ok: true as const }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (outcome.ok) throw new Error('expected the call to fail, but it succeeded');
  if (!(outcome.error instanceof Error)) throw new Error(`expected an Error, got ${String(outcome.error)}`);
  return outcome.error;
}
