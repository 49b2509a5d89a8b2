import { closeSync, openSync, writeFileSync } from 'node:fs';
import { csvRecord } from './csv-record.js';
import { commitFile, discardFile, outputError, temporaryPathFor } from './atomic-file.js';
import type { ChangeRow, ChangesModel } from './html/model.js';
import { MAX_CHANGE_ROWS } from './html/page-data.js';
import { basename } from 'node:path';

export const CHANGE_COLUMNS = ['file', 'row', 'contact_id', 'field', 'old', 'new'] as const;

/** Rows buffered before a write: a few hundred rows per system call. */
const BATCH = 512;

/**
 * changes.csv (docs/design.md, wave 2): one row per changed scalar field of an updated contact, as
 * found; formula-safe like every CSV we write. Rows go to disk in batches, under a temporary name
 * renamed at close; only the first rows stay in memory, for report.html.
 */
export class ChangesFile {
  readonly path: string;
  private readonly temporary: string;
  private fd: number | undefined;
  private batch: string[] = [];
  private readonly sample: ChangeRow[] = [];
  total = 0;

  constructor(path: string) {
    this.path = path;
    this.temporary = temporaryPathFor(path);
    this.fd = this.guarded(() => openSync(this.temporary, 'wx'));
    this.batch.push(csvRecord(CHANGE_COLUMNS));
  }

  add(rows: readonly ChangeRow[]): void {
    for (const row of rows) {
      this.total += 1;
      if (this.sample.length < MAX_CHANGE_ROWS) this.sample.push(row);
      // Row 0: the change belongs to no record (a sync run's archive); its file and row stay empty.
      const cells = [
        row.file,
        row.row === 0 ? '' : String(row.row),
        row.contactId,
        row.field,
        row.old,
        row.new,
      ];
      this.batch.push(csvRecord(cells));
      if (this.batch.length >= BATCH) this.flush();
    }
  }

  /** What report.html shows: the count, the first rows, the file beside it. */
  model(): ChangesModel {
    return { total: this.total, rows: this.sample, file: basename(this.path) };
  }

  close(): void {
    if (this.fd === undefined) return;
    this.flush();
    const fd = this.fd;
    this.fd = undefined;
    this.guarded(() => closeSync(fd));
    commitFile(this.temporary, this.path);
  }

  private flush(): void {
    const fd = this.fd;
    if (fd === undefined || this.batch.length === 0) return;
    // writeFileSync, not writeSync: a write cut short (a file-size limit) is carried on until it fails.
    this.guarded(() => writeFileSync(fd, this.batch.join('')));
    this.batch = [];
  }

  /** A write that fails (full disk, file-size limit) leaves no file: output_error, one line. */
  private guarded<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      const fd = this.fd;
      this.fd = undefined;
      if (fd !== undefined) closeQuietly(fd);
      discardFile(this.temporary);
      throw outputError(this.path, error);
    }
  }
}

const closeQuietly = (fd: number): void => {
  try {
    closeSync(fd);
  } catch {
    // The write already failed; that error is the one to report.
  }
};
