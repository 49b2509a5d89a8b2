import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP proxy on 127.0.0.1, port 0, in front of a service: every request goes through as it
 * came; the answer to a contact create (`POST /v1/contacts/`) can have its ids rewritten on the way
 * back, as a broken target or a proxy in between would; contacts reordered; the query rewritten
 * (a search that is not exact); or the proxy answers itself (429s, redirects, error pages).
 */
/** An answer the proxy gives itself instead of forwarding. */
export interface OwnAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface RewritingProxy {
  url: string;
  /** Maps the ids of a create answer, in order; unset: answers pass unchanged. */
  rewriteCreate: ((ids: string[]) => string[]) | undefined;
  /** Maps the contacts of a create answer (reorder, swap); applied after `rewriteCreate`. */
  rewriteCreateContacts: ((contacts: { id: string; full_name?: string | null }[]) => unknown[]) | undefined;
  /** Maps the text of a forwarded answer (after the create rewrites), by request. */
  rewriteAnswer: ((req: { method: string; url: string }, text: string) => Promise<string>) | undefined;
  /** Maps a request's path and query before it is forwarded. */
  rewriteUrl: ((url: string) => string) | undefined;
  /** Answers a request itself (a 429, a redirect, an error page) when it returns an answer. */
  answer:
    | ((req: {
        method: string;
        url: string;
        headers: Record<string, string | string[] | undefined>;
      }) => OwnAnswer | undefined)
    | undefined;
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
    rewriteCreateContacts: undefined,
    rewriteUrl: undefined,
    rewriteAnswer: undefined,
    answer: undefined,
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
        const own = proxy.answer?.({
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          headers: req.headers,
        });
        if (own) {
          res.writeHead(own.status, own.headers ?? {});
          res.end(own.body ?? '');
          return;
        }
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
        const url = proxy.rewriteUrl ? proxy.rewriteUrl(req.url ?? '/') : (req.url ?? '/');
        const answer = await fetch(new URL(url, upstream), {
          method: req.method ?? 'GET',
          headers,
          ...(body ? { body } : {}),
        });
        let text = await answer.text();
        const isCreate = req.method === 'POST' && /^\/v1\/contacts\/?$/.test(req.url ?? '');
        if (isCreate && answer.ok && (proxy.rewriteCreate || proxy.rewriteCreateContacts)) {
          const payload = JSON.parse(text) as { data: { contacts: { id: string }[] } };
          if (proxy.rewriteCreate) {
            const ids = proxy.rewriteCreate(payload.data.contacts.map((c) => c.id));
            payload.data.contacts.forEach((contact, i) => (contact.id = ids[i]!));
          }
          if (proxy.rewriteCreateContacts) {
            payload.data.contacts = proxy.rewriteCreateContacts(payload.data.contacts) as { id: string }[];
          }
          text = JSON.stringify(payload);
        }
        if (proxy.rewriteAnswer) text = await proxy.rewriteAnswer({ method: req.method ?? 'GET', url }, text);
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
