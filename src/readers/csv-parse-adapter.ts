import { Parser, type CsvError } from 'csv-parse';

/**
 * csv-parse, through its exported stream class and documented options only; the one file that
 * knows them. What the CSV reader relies on (pinned to the installed version by
 * test/contract/dependencies/csv-parse.test.ts):
 * - The parser pushes each record while `write` runs, as a Transform does, and its public `info`
 *   then says the bytes parsed so far: the offset just past that record's line break (or the end
 *   of the input). Read there rather than through the `info` or `on_record` options, which build a
 *   fresh object of a dozen fields for every record (measurably slower a row; bench/csv-read.js).
 * - With `skip_records_with_error`, a record that cannot be read calls `on_skip` with its CsvError
 *   (its `code`, a message naming the line) while `write` runs, and the stream never errors. The
 *   reader restarts a fresh parser where it resumes, so whatever this one says after is dropped.
 * - `max_record_size` bounds what the parser holds of one record (`CSV_MAX_RECORD_SIZE`).
 */
export interface CsvParseSettings {
  delimiter: string;
  relaxQuotes: boolean;
  maxRecordBytes: number;
}

/** Receives a record's fields and the bytes parsed up to its end (from where this parser started). */
export type OnCsvRecord = (fields: string[], bytes: number) => void;

/** The stream's output taken as it is pushed: nothing is queued on its readable side. */
class RecordTap extends Parser {
  /** The first error met; nothing after it is passed on. */
  failed: CsvError | undefined;

  constructor(
    settings: CsvParseSettings,
    private readonly onRecord: OnCsvRecord,
  ) {
    super({
      delimiter: settings.delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      relax_quotes: settings.relaxQuotes,
      skip_empty_lines: true,
      max_record_size: settings.maxRecordBytes,
      bom: false,
      skip_records_with_error: true,
      on_skip: (error) => {
        this.failed ??= error;
        return undefined;
      },
    });
  }

  override push(record: unknown): boolean {
    if (record === null) return super.push(null);
    if (this.failed === undefined) this.onRecord(record as string[], this.info.bytes);
    return true;
  }
}

export class CsvParse {
  private readonly parser: RecordTap;

  constructor(settings: CsvParseSettings, onRecord: OnCsvRecord) {
    this.parser = new RecordTap(settings, onRecord);
  }

  /** Parses `bytes`; the records they complete reach `onRecord` before this returns. */
  write(bytes: Buffer): CsvError | undefined {
    if (this.parser.failed === undefined) this.parser.write(bytes);
    return this.parser.failed;
  }

  /** Ends the input: the last record (without a line break) or an unclosed quote is settled. */
  end(): Promise<CsvError | undefined> {
    const parser = this.parser;
    if (parser.failed !== undefined) return Promise.resolve(parser.failed);
    return new Promise((resolve, reject) => {
      parser.end((error?: Error | null) => (error ? reject(error) : resolve(parser.failed)));
    });
  }
}
