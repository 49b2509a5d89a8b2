import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A plain node:http server on 127.0.0.1, port 0, whose every answer the test scripts: for what
 * the local service cannot produce on demand (endless bodies, silence, bad shapes).
 */
export interface Peer {
  url: string;
  /** Requests whose body has arrived, in order. */
  requests: { method: string; url: string; body: string; at: number }[];
  close(): Promise<void>;
}

export type PeerHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export async function startPeer(handler: PeerHandler): Promise<Peer> {
  const requests: Peer['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', body, at: performance.now() });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Answers with the service's success envelope around `data`. */
export function answerJson(res: ServerResponse, status: number, payload: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(payload));
}

/** An E4 answer with no contacts: what the start probe gets from an empty target. */
export const emptySearch = { error: false, data: [] };
