import { createServer, type Server } from 'node:net';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService } from '../../../src/server/index.js';
import { LEDGER_FILE, openLedger } from '../../../src/state/index.js';
import { caller } from './http.js';
import { serveExpectingFailure } from './serve-process.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'contact-import-server-db-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real contact-import ledger, as `run --state` leaves it. */
function ledgerFile(): string {
  const state = join(dir, `state-${Math.random().toString(36).slice(2)}`);
  openLedger({ dir: state }).close();
  return join(state, LEDGER_FILE);
}

function sqliteWith(name: string, sql: string): string {
  const file = join(dir, name);
  const db = new Database(file);
  db.exec(sql);
  db.close();
  return file;
}

/** One line on stderr, no stack trace. */
const oneLine = (stderr: string) => {
  expect(stderr.trim().split('\n')).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
};

/** `serve --db file` exits 2 with one line naming the file, and leaves the file byte-identical. */
async function expectServeRefuses(file: string): Promise<void> {
  const before = readFileSync(file);
  const cli = await serveExpectingFailure(['--port', '0', '--db', file]);
  expect(cli.code).toBe(2);
  expect(cli.stderr).toContain(file);
  oneLine(cli.stderr);
  expect(readFileSync(file).equals(before)).toBe(true);
}

describe('a database that is not ours is refused unchanged', () => {
  it.each([
    ['a contact-import ledger', ledgerFile, /contact-import ledger/],
    [
      'a SQLite file with a table of its own',
      () =>
        sqliteWith(
          'notes.sqlite',
          'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES (1);',
        ),
      /table notes/,
    ],
    [
      "a SQLite file whose contacts table is not the service's",
      () => sqliteWith('other-contacts.sqlite', 'CREATE TABLE contacts (name TEXT);'),
      /contacts lacks/,
    ],
  ] as const)('%s', async (_label, make, why) => {
    const file = make();
    const before = readFileSync(file);
    const refusal = startLocalService({ port: 0, db: file });
    await expect(refusal).rejects.toMatchObject({ code: 'config_invalid' });
    await expect(refusal).rejects.toThrow(file);
    await expect(refusal).rejects.toThrow(why);
    expect(readFileSync(file).equals(before)).toBe(true);
    await expectServeRefuses(file);
  });

  it('a file that is not SQLite at all: the error names the file', async () => {
    const file = join(dir, 'corrupt.sqlite');
    writeFileSync(file, 'this is not a database, just some text that fills a page '.repeat(100));
    const before = readFileSync(file);
    await expect(startLocalService({ port: 0, db: file })).rejects.toThrow(
      new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*not a database`),
    );
    expect(readFileSync(file).equals(before)).toBe(true);
    await expectServeRefuses(file);
  });

  it('a file in a folder that does not exist: the error names the file', async () => {
    const file = join(dir, 'missing-folder', 'local.sqlite');
    await expect(startLocalService({ port: 0, db: file })).rejects.toThrow(file);
  });
});

describe('databases that are ours are used', () => {
  it('an empty file, and the same file again after a restart', async () => {
    const file = join(dir, 'empty.sqlite');
    writeFileSync(file, '');
    const first = await startLocalService({ port: 0, db: file, apiKeys: ['db-owner-key-1'] });
    await caller(first)('POST', '/v1/contacts/', { body: { contacts: [{ full_name: 'Kept' }] } });
    await first.close();
    const copy = join(dir, 'copy.sqlite');
    copyFileSync(file, copy);
    const second = await startLocalService({ port: 0, db: copy, apiKeys: ['db-owner-key-1'] });
    try {
      const contacts = (await caller(second)('GET', '/_local/contacts')).json.data.contacts;
      expect(contacts.map((c: { full_name: string }) => c.full_name)).toEqual(['Kept']);
    } finally {
      await second.close();
    }
  });
});

describe('serve startup errors', () => {
  let holder: Server;
  let port: number;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
    port = (holder.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((done) => holder.close(() => done())));

  it('a port in use: one line naming the port, exit 2', async () => {
    const cli = await serveExpectingFailure(['--port', String(port)]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain(`port ${port} is already in use`);
    oneLine(cli.stderr);
  });
});
