import type { ServerResponse } from 'node:http';

const MB = 1024 * 1024;

/** Streams `megabytes` of JSON-looking bytes without a Content-Length, minding backpressure. */
export const streamEndlessly = (res: ServerResponse, megabytes: number): void => {
  const chunk = Buffer.alloc(MB, ' ');
  res.writeHead(200, { 'content-type': 'application/json' });
  res.on('error', () => undefined);
  let sent = 0;
  const pump = (): void => {
    while (sent < megabytes) {
      sent += 1;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
};
