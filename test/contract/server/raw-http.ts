import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  /** The socket error seen while writing, if any (the answer may still have arrived). */
  writeError?: string;
  /** Milliseconds from connecting to the connection's end. */
  ms: number;
}

/** Parses one HTTP/1.1 answer with a Content-Length body out of everything the socket delivered. */
function parseAnswer(bytes: Buffer): Omit<RawAnswer, 'ms' | 'writeError'> | undefined {
  const text = bytes.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(end + 4, end + 4 + Number(headers['content-length'] ?? 0));
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, json };
}

/**
 * A naive HTTP client on a raw socket: writes the whole request (head, then every body part,
 * waiting `pauseMs` before each part; then half-closes unless `keepOpen`), and takes what it
 * received by the time the server ends the connection. What a simple
 * script or an old client does; the service must still be heard.
 */
export function rawExchange(
  url: string,
  head: string,
  parts: Iterable<Buffer | string> = [],
  options: { pauseMs?: number; keepOpen?: boolean } = {},
): Promise<RawAnswer | { status: 0; error: string; ms: number }> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const received: Buffer[] = [];
    let writeError: string | undefined;
    // Nothing is read until the request is written (or writing failed), as a naive client does:
    // what the server sent meanwhile waits in the kernel, where a reset would destroy it.
    const startReading = () => {
      if (socket.listenerCount('data') > 0) return;
      socket.on('data', (d: Buffer) => received.push(d));
      socket.resume();
    };
    socket.on('error', (error: NodeJS.ErrnoException) => {
      writeError ??= error.code ?? error.message;
      startReading();
    });
    // The server's end of the connection (its FIN, or the whole socket closing) ends the exchange.
    const settle = () => {
      const ms = performance.now() - started;
      const answer = parseAnswer(Buffer.concat(received));
      socket.destroy();
      if (answer) resolve({ ...answer, writeError, ms });
      else resolve({ status: 0, error: writeError ?? 'closed without an answer', ms });
    };
    socket.once('end', settle);
    socket.once('close', settle);
    socket.pause();
    const write = async () => {
      if (!socket.write(head)) await new Promise((r) => socket.once('drain', r));
      for (const part of parts) {
        if (socket.destroyed) return;
        if (options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs));
        if (!socket.write(part)) await new Promise((r) => socket.once('drain', r));
      }
      if (!socket.destroyed && !options.keepOpen) socket.end();
      startReading();
    };
    socket.once('connect', () => void write());
  });
}

/** `count` chunks of `size` bytes in chunked transfer-encoding, then the last chunk. */
export function* chunkedBody(count: number, size: number, fill = 0x20): Generator<Buffer> {
  const data = Buffer.alloc(size, fill);
  const frame = Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
  for (let i = 0; i < count; i++) yield frame;
  yield Buffer.from('0\r\n\r\n');
}
