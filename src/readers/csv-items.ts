import type { SourceItem, SourceProblem } from './types.js';
import { HeaderRow } from './header-row.js';
import type { CsvEntry } from './csv-records.js';
import { INVALID_MARK, showInvalid } from './decode.js';
import {
  loneSurrogateWarning,
  repairLoneSurrogateCells,
  warnOtherEncoding,
  warnRow,
} from './read-warnings.js';
import { LONE_SURROGATE_MARK } from './utf8.js';

const showMarks = (raw: string): string => raw.replaceAll(LONE_SURROGATE_MARK, '\uFFFD');
import type { TextSource } from './text-source.js';

/**
 * The records of a CSV or TSV input after its header, as rows keyed by header name or as the
 * problem each one is, numbered in reading order (row 1 is the record after the header).
 */
export class CsvItems {
  /** The number of the last record turned into an item. */
  row = 0;
  private readonly hasProtoName: boolean;

  constructor(
    private readonly file: string,
    private readonly names: readonly string[],
    private readonly text: Pick<TextSource, 'encoding' | 'transcoder'>,
  ) {
    this.hasProtoName = names.includes('__proto__');
  }

  toItem(entry: CsvEntry): SourceItem {
    const row = ++this.row;
    const { file, names } = this;
    const { raw, line } = entry;
    if (entry.kind === 'malformed') {
      const resumed = entry.resumedAt === undefined ? '' : `; reading resumed at line ${entry.resumedAt}`;
      return this.problem(
        'row_unparseable',
        line,
        `Row ${row} of ${file} (line ${line}) cannot be parsed: ${entry.reason}${resumed}.`,
        showInvalid(raw),
      );
    }
    const { transcoder } = this.text;
    if (transcoder.invalidSeen && raw.includes(INVALID_MARK)) {
      return this.problem(
        'invalid_encoding',
        line,
        `Row ${row} of ${file} holds bytes that are not valid ${this.text.encoding}.`,
        showInvalid(raw),
      );
    }
    if (transcoder.nulSeen && raw.includes('\0')) {
      return this.problem(
        'row_unparseable',
        line,
        `Row ${row} of ${file} holds a NUL character; expected text.`,
        raw,
      );
    }
    const { fields } = entry;
    if (fields.length !== names.length) {
      return this.problem(
        'row_ragged',
        line,
        `Row ${row} of ${file} has ${fields.length} field(s); the header has ${names.length}.`,
        raw,
      );
    }
    if (transcoder.loneSurrogateSeen && raw.includes(LONE_SURROGATE_MARK)) {
      const repaired = repairLoneSurrogateCells(fields, names);
      const item = new HeaderRow(file, row, line, showMarks(raw), repaired.cells, names, this.hasProtoName);
      for (const field of repaired.fields) warnRow(item, loneSurrogateWarning(`Row ${row}`, item, field));
      return warnOtherEncoding(item, transcoder, `Row ${row}`);
    }
    return warnOtherEncoding(
      new HeaderRow(file, row, line, raw, fields, this.names, this.hasProtoName),
      transcoder,
      `Row ${row}`,
    );
  }

  private problem(code: SourceProblem['code'], line: number, message: string, raw: string): SourceProblem {
    return { kind: 'problem', file: this.file, row: this.row, line, code, message, raw };
  }
}
