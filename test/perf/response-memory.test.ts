import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { streamEndlessly } from '../support/endless-body.js';
import { startPeer, type Peer } from '../support/peer.js';

/**
 * Memory (npm run test:perf, not npm test): peak RSS bounds that hold on a quiet machine. The limit
 * itself (one response_too_large, not retried) is checked in test/unit/client/response-limit.test.ts.
 */
const key = 'limit-test-key-90ab17';
const MB = 1024 * 1024;
const DIST_CLIENT = join(import.meta.dirname, '../../dist/client/index.js');
const PEAK_RSS = join(import.meta.dirname, '../support/peak-rss.cjs');

let peer: Peer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

describe('response bodies are read up to a limit', () => {
  /** Runs the built client in a child and returns its error code and peak RSS in MB. */
  const childReading = async (
    url: string,
    limitOption: string,
  ): Promise<{ code: string; peakMb: number }> => {
    const script = [
      `import { createClient } from ${JSON.stringify(DIST_CLIENT)};`,
      `const client = createClient({ baseUrl: ${JSON.stringify(url)}, apiKey: ${JSON.stringify(key)}${limitOption} });`,
      'const code = await client.globalSearch({}).then(() => "none", (e) => e.code);',
      'await client.close();',
      'console.log(JSON.stringify({ code }));',
    ].join('\n');
    // The child's own peak (test/support/peak-rss.cjs), not the test worker's pages it forked from.
    const child = spawn(process.execPath, ['--require', PEAK_RSS, '--input-type=module', '-e', script]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await new Promise((resolve) => child.on('close', resolve));
    const peakKb = /peak-rss-kb (\d+)/.exec(err);
    expect(peakKb, err).not.toBeNull();
    return { ...(JSON.parse(out) as { code: string }), peakMb: Number(peakKb![1]) / 1024 };
  };

  it('keeps the reading process far below a 200 MB answer (peak RSS of a child running the client)', async () => {
    peer = await startPeer((_req, res) => streamEndlessly(res, 200));
    // Reading it all would take more than 400 MB (the bytes, then the text).
    const small = await childReading(peer.url, `, maxResponseBytes: ${8 * MB}`);
    expect(small.code).toBe('response_too_large');
    expect(small.peakMb).toBeLessThan(130);
    // The default limit, 64 MB, holds too.
    const byDefault = await childReading(peer.url, '');
    expect(byDefault.code).toBe('response_too_large');
    expect(byDefault.peakMb).toBeLessThan(220);
  });
});
