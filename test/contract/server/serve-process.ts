import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

const CLI = join(resolve(import.meta.dirname, '../../..'), 'dist/cli/main.js');

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface ServeExit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built `contact-import serve` in its own process, so a test can time the service from
 * outside it: a request that blocks the service's event loop cannot also stall the test's clock.
 */
export function startServeProcess(args: string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((resolvePromise, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const url = /Local service: (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url === undefined) return;
      resolvePromise({
        url,
        child,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code} before listening: ${stderr}`)));
  });
}

/** Runs `serve` expecting it to fail at start; resolves with how it ended. */
export function serveExpectingFailure(args: string[], timeoutMs = 20_000): Promise<ServeExit> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolvePromise) => {
    child.once('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}
