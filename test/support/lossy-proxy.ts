import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seededRandom } from '../../src/server/faults.js';

/**
 * A real HTTP forwarder on 127.0.0.1, port 0, that plays a target whose answers to contact creates
 * get lost: a create is forwarded and applied upstream, then, at `lossRate`, its answer is dropped
 * (the connection reset) or cut halfway. A target that ignores Idempotency-Key is the local
 * service with `idempotency: false` behind it. Counts requests by "METHOD /path" (query left out).
 */
export interface LossyProxy {
  url: string;
  lost: { reset: number; cut: number };
  counts: Map<string, number>;
  /** Every request's "METHOD /path", in the order the proxy received them. */
  order: string[];
  close(): Promise<void>;
}

export async function startLossyProxy(
  upstream: string,
  options: { lossRate: number; seed: number },
): Promise<LossyProxy> {
  const random = seededRandom(options.seed);
  const proxy: LossyProxy = {
    url: '',
    lost: { reset: 0, cut: 0 },
    counts: new Map(),
    order: [],
    close: async () => {},
  };
  const forwarded = ['authorization', 'content-type', 'idempotency-key'];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const route = `${req.method} ${(req.url ?? '/').split('?')[0]}`;
        proxy.counts.set(route, (proxy.counts.get(route) ?? 0) + 1);
        proxy.order.push(route);
        const headers: Record<string, string> = {};
        for (const name of forwarded) {
          const value = req.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const answer = await fetch(new URL(req.url ?? '/', upstream), {
          method: req.method ?? 'GET',
          headers,
          ...(body ? { body } : {}),
        });
        const text = await answer.text();
        const roll = route === 'POST /v1/contacts/' ? random() : 1;
        if (roll < options.lossRate / 2) {
          proxy.lost.reset += 1;
          req.socket.destroy();
          return;
        }
        res.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/json',
          'content-length': Buffer.byteLength(text),
        });
        if (roll < options.lossRate) {
          proxy.lost.cut += 1;
          res.write(text.slice(0, Math.floor(text.length / 2)));
          setImmediate(() => req.socket.destroy());
          return;
        }
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
