import { open as openFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { ImportError } from '../core/errors/index.js';
import { describeBinaryKind } from './file-kind.js';

/**
 * The parts of a workbook's ZIP package, opened by name in any order: the central directory is
 * read first, so styles and shared strings can be read before the sheet whatever order the
 * spreadsheet program stored them in.
 */
export interface WorkbookZip {
  /** The part's name as stored, found case-insensitively (OPC part names ignore case). */
  find(name: string): string | undefined;
  /**
   * The part's inflated bytes, streamed; destroy the stream when not read to its end. A part the
   * package says inflates to more than `maxBytes` is not opened (yauzl holds every part to the
   * size the package says, so a part cannot inflate past it unseen).
   */
  stream(name: string, maxBytes: number): Promise<Readable>;
  /** Resolves once the file is closed: after every part stream has ended or been destroyed. */
  close(): Promise<void>;
}

const firstBytes = async (path: string): Promise<Buffer> => {
  const handle = await openFile(path, 'r');
  try {
    const buffer = Buffer.alloc(8);
    const { bytesRead } = await handle.read(buffer, 0, 8, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
};

/** Why a file that should be a workbook is not one, in the user's terms. */
const notAWorkbook = async (path: string, file: string, cause: unknown): Promise<ImportError> => {
  const code = (cause as { code?: unknown }).code;
  if (code === 'ENOENT') {
    return new ImportError('input_not_found', `Input file ${file} does not exist.`, { file }, { cause });
  }
  if (code === 'EISDIR') {
    return new ImportError('input_unreadable', `Input ${file} is a directory; expected a file.`, { file });
  }
  const kind = await firstBytes(path)
    .then(describeBinaryKind)
    .catch(() => undefined);
  if (kind === 'cfb') {
    return new ImportError(
      'input_format_unsupported',
      `${file} is an old Excel 97-2003 workbook or a password-protected one: save it as .xlsx without a password, or as CSV.`,
      { file },
    );
  }
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new ImportError(
    'input_unreadable',
    `${file} is not an Excel workbook that can be read (${reason}); expected an .xlsx file saved by a spreadsheet program.`,
    { file },
    { cause },
  );
};

const readEntries = (zip: ZipFile): Promise<Map<string, Entry>> =>
  new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    zip.on('entry', (entry: Entry) => {
      entries.set(entry.fileName.toLowerCase(), entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', reject);
    zip.readEntry();
  });

const partTooLarge = (file: string, part: string, size: number, limit: number): ImportError =>
  new ImportError(
    'input_unreadable',
    `${file}: the part ${part} inflates to ${size} bytes, more than the ${limit} bytes a workbook part may; the workbook is damaged or built to exhaust memory (a ZIP bomb): save it again from a spreadsheet program, or export the sheet as CSV.`,
    { file, part, limit },
  );

/** Opens a workbook file's ZIP package and reads its list of parts. */
export async function openWorkbookZip(path: string, file: string): Promise<WorkbookZip> {
  let zip: ZipFile;
  let entries: Map<string, Entry>;
  try {
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, strictFileNames: false });
  } catch (error) {
    throw await notAWorkbook(path, file, error);
  }
  try {
    entries = await readEntries(zip);
  } catch (error) {
    zip.close();
    throw await notAWorkbook(path, file, error);
  }
  const entryOf = (name: string): Entry | undefined => entries.get(name.replace(/^\//, '').toLowerCase());
  // yauzl checks each part's inflated size against this entry's, so the declared size bounds it.
  // yauzl closes the file once the last open part stream is destroyed; `close` waits for that.
  let closed: Promise<void> | undefined;
  return {
    find: (name) => entryOf(name)?.fileName,
    stream: async (name, maxBytes) => {
      const entry = entryOf(name);
      if (!entry) throw new ImportError('input_unreadable', `${file} has no part ${name}.`, { file });
      if (entry.uncompressedSize > maxBytes) throw partTooLarge(file, name, entry.uncompressedSize, maxBytes);
      try {
        return await zip.openReadStreamPromise(entry);
      } catch (error) {
        throw new ImportError(
          'input_unreadable',
          `${file}: the part ${name} cannot be read (${(error as Error).message}); the workbook may be damaged.`,
          { file },
          { cause: error },
        );
      }
    },
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        zip.once('close', resolve);
        // A file that fails to close has nothing more to give: closing is done either way.
        zip.once('error', () => resolve());
        zip.close();
      })),
  };
}
