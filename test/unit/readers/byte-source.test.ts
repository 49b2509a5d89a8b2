import { appendFileSync, renameSync, truncateSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { changeOf, openBytes } from '../../../src/readers/byte-source.js';
import { CHUNK_BYTES } from '../../../src/readers/limits.js';
import { tempFiles } from './read-all.js';

const files = tempFiles();
afterAll(() => files.cleanup());

/** Opens `path`, takes its first chunk, does `change`, then reads on; the error it ends with. */
const readAcross = async (path: string, change: () => void): Promise<unknown> => {
  const bytes = await openBytes({ path });
  try {
    await bytes.chunks.next();
    change();
    for (;;) if ((await bytes.chunks.next()).done) return undefined;
  } catch (error) {
    return error;
  } finally {
    await bytes.close();
  }
};

const content = (): Buffer => Buffer.alloc(CHUNK_BYTES * 3, 'a\n');

describe('a file that changes while it is read', () => {
  it('read unchanged, it ends without error', async () => {
    const path = files.write('same.csv', content());
    expect(await readAcross(path, () => undefined)).toBeUndefined();
  });

  it('cut short: input_changed naming the file and the sizes', async () => {
    const path = files.write('cut.csv', content());
    const error = await readAcross(path, () => truncateSync(path, CHUNK_BYTES * 2 + 7));
    expect(error).toMatchObject({
      code: 'input_changed',
      message: expect.stringContaining(
        `Input file ${path} changed while it was read (it shrank from ${CHUNK_BYTES * 3} to ${CHUNK_BYTES * 2 + 7} bytes)`,
      ),
      context: { file: path },
    });
  });

  it('added to, or replaced by another file: input_changed', async () => {
    const grown = files.write('grown.csv', content());
    expect(await readAcross(grown, () => appendFileSync(grown, 'more\n'))).toMatchObject({
      code: 'input_changed',
      message: expect.stringContaining('it grew from'),
    });
    const replaced = files.write('replaced.csv', content());
    const other = files.write('other.csv', content());
    expect(await readAcross(replaced, () => renameSync(other, replaced))).toMatchObject({
      code: 'input_changed',
      message: expect.stringContaining('another file replaced it'),
    });
  });

  it('changeOf tells each change from the sizes, times and identities', () => {
    const opened = { size: 10, mtimeMs: 1, ino: 5, dev: 1 };
    expect(changeOf(opened, 10, { size: 10, mtimeMs: 1 }, { ino: 5, dev: 1 })).toBeUndefined();
    expect(changeOf(opened, 4, { size: 10, mtimeMs: 1 }, { ino: 5, dev: 1 })).toBe(
      'it ended after 4 of the 10 bytes it had when opened',
    );
    expect(changeOf(opened, 10, { size: 10, mtimeMs: 2 }, { ino: 5, dev: 1 })).toBe('it was written to');
    expect(changeOf(opened, 10, { size: 10, mtimeMs: 1 }, undefined)).toBe('it was removed');
    // A file sized 0 that reads bytes (/proc) never had a size to compare with.
    expect(changeOf({ ...opened, size: 0 }, 99, { size: 0, mtimeMs: 1 }, { ino: 5, dev: 1 })).toBeUndefined();
  });
});
