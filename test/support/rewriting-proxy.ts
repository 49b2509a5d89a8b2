import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP proxy on 127.0.0.1, port 0, in front of a service: every request goes through as it
 * came; the answer to a contact create (`POST /v1/contacts/`) can have its ids rewritten on the way
 * back, as a broken target or a proxy in between would. For the tests of issue 16.5.
 */
export interface RewritingProxy {
  url: string;
  /** Maps the ids of a create answer, in order; unset: answers pass unchanged. */
  rewriteCreate: ((ids: string[]) => string[]) | undefined;
  /** A body over this many bytes gets 413 here, as from a target with a smaller limit. */
  maxBodyBytes: number | undefined;
  /** Sizes of the request bodies that went through to the service. */
  forwarded: number[];
  /** The request bodies that went through, as they came (for byte-for-byte checks). */
  bodies: { method: string; path: string; body: Buffer }[];
  /** Every request that came, with or without a body: `METHOD /path?query`. */
  requests: string[];
  close(): Promise<void>;
}

const FORWARDED = ['authorization', 'content-type', 'idempotency-key'];

export async function startRewritingProxy(upstream: string): Promise<RewritingProxy> {
  const proxy: RewritingProxy = {
    url: '',
    rewriteCreate: undefined,
    maxBodyBytes: undefined,
    forwarded: [],
    bodies: [],
    requests: [],
    close: async () => {},
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const headers: Record<string, string> = {};
        for (const name of FORWARDED) {
          const value = req.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        proxy.requests.push(`${req.method ?? 'GET'} ${req.url ?? '/'}`);
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        if (body && proxy.maxBodyBytes !== undefined && body.length > proxy.maxBodyBytes) {
          res.writeHead(413, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              error: true,
              data: {
                code: 'payload_too_large',
                message: `bodies over ${proxy.maxBodyBytes} bytes are refused`,
              },
            }),
          );
          return;
        }
        if (body) {
          proxy.forwarded.push(body.length);
          proxy.bodies.push({ method: req.method ?? 'GET', path: req.url ?? '/', body });
        }
        const answer = await fetch(new URL(req.url ?? '/', upstream), {
          method: req.method ?? 'GET',
          headers,
          ...(body ? { body } : {}),
        });
        let text = await answer.text();
        const isCreate = req.method === 'POST' && /^\/v1\/contacts\/?$/.test(req.url ?? '');
        if (isCreate && answer.ok && proxy.rewriteCreate) {
          const payload = JSON.parse(text) as { data: { contacts: { id: string }[] } };
          const ids = proxy.rewriteCreate(payload.data.contacts.map((c) => c.id));
          payload.data.contacts.forEach((contact, i) => (contact.id = ids[i]!));
          text = JSON.stringify(payload);
        }
        res.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/json',
        });
        res.end(text);
      })().catch((error: unknown) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return proxy;
}
